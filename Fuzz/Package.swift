// swift-tools-version:6.0
import PackageDescription

/// libFuzzer driver for the fuzz targets in Targets/ (a target of the main package, shared with
/// the regression test). Only ever built with `-sanitize=fuzzer`: see `make fuzz` and
/// docs/reliability.md.
let package = Package(
    name: "gridlock-fuzz",
    dependencies: [.package(name: "gridlock", path: "..")],
    targets: [
        // The declaration of LLVMFuzzerRunDriver (libFuzzer is the toolchain's, linked by -sanitize=fuzzer).
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "gridlock-fuzz",
            dependencies: ["CLibFuzzer", .product(name: "GridlockFuzzing", package: "gridlock")]),
    ]
)
