// swift-tools-version:6.0
import PackageDescription

/// Layout: each C library has its own system-library target. `LinuxSys` is the only
/// shipped target that imports Glibc and calls libc, through typed wrappers whose errors
/// name the path and errno (`tests/check-boundary` fails `make test` on an `import Glibc`
/// elsewhere under Sources/, or an `import Foundation` anywhere there). `GridlockCore`
/// is pure Swift: pattern, tracker, lock machine, lockout schedule, scene. GridlockInput,
/// GridlockDisplay and GridlockDaemon adapt devices, C libraries and files to it; the two
/// executables parse their arguments and wire the rest.
///
/// Every target lists each module it imports, not only the one that brings the others in,
/// so that a change to any of them is a change to its dependencies: after an incremental
/// build, GridlockDisplayTests, which reached GridlockCore only through GridlockDisplay,
/// still held code compiled for a `Theme` 32 bytes shorter, and crashed (ASan: a
/// stack-buffer-overflow in `Theme.init`). A clean build never showed it.
let package = Package(
    name: "gridlock",
    products: [
        .executable(name: "gridlockd", targets: ["gridlockd"]),
        .executable(name: "gridlockd-single", targets: ["gridlockd-single"]),
        .executable(name: "gridlock", targets: ["gridlock"]),
        .executable(name: "gridlock-lock", targets: ["gridlock-lock"]),
        .executable(name: "gridlock-panel", targets: ["gridlock-panel"]),
        // For the fuzzing package in Fuzz/ (docs/reliability.md), which depends on this one by path.
        .library(name: "GridlockFuzzing", targets: ["GridlockFuzzing"]),
    ],
    targets: [
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev"])]),
        // Text in any script: HarfBuzz shapes, fribidi orders, fontconfig finds fallback fonts.
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev", "libfribidi-dev", "libfontconfig-dev"])]),
        .systemLibrary(name: "CInih", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
        // Theme PNGs' image data is inflated once before decoding, to name what is wrong with a broken one.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // Linux headers Swift's Glibc module leaves out (epoll, signalfd, timerfd, eventfd,
        // pipe2, pidfd_open, netlink, prctl, FIONREAD and perf_event_open), for LinuxSys alone.
        .systemLibrary(name: "CLinux"),
        // The Wayland lock face's client library, linked by GridlockWayland alone (gridlockd and
        // gridlock never talk to a compositor).
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        // The extension protocols' interface tables (ext-session-lock-v1, ext-idle-notify-v1,
        // viewporter, presentation-time): `wayland-scanner private-code` output, kept in the
        // tree and remade by tools/wayland-protocols. (A build-tool plugin cannot make them:
        // SwiftPM compiles a plugin's generated C only from tools version 6.3 on.)
        .target(name: "CWaylandProtocols"),

        // Pure Swift; libm only because the standard library's rounding and square root call it on Linux.
        .target(name: "GridlockCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "LinuxSys", dependencies: ["CLinux", "GridlockCore"]),
        // Touch as data: evemu recordings, the decoder (MT protocol A/B), the coordinate mapper
        // and the calibration fit; no C library.
        .target(name: "GridlockInput", dependencies: ["GridlockCore", "LinuxSys"]),
        // The libevdev adapter: input devices, their choice, the touch and beeper sources on the
        // loop, the EV_SND beeper, recording.
        .target(name: "GridlockEvdev", dependencies: ["GridlockCore", "GridlockInput", "LinuxSys", "CEvdev"]),
        // A theme's files as bytes, no C library: PNG headers, the images' budgets, and how a
        // look is judged (`LookInspecting`); what a program that draws nothing checks of them.
        .target(name: "GridlockThemeFiles", dependencies: ["GridlockCore", "LinuxSys"]),
        // Draws scenes: cairo, text shaping and theme images. Linked by the programs that draw.
        .target(name: "GridlockRendering", dependencies: ["GridlockCore", "GridlockThemeFiles", "LinuxSys", "CCairo", "CHarfBuzz", "CZlib"]),
        // Shows what was drawn: DRM/KMS and the PNG and null outputs.
        .target(name: "GridlockDisplay", dependencies: ["GridlockCore", "GridlockRendering", "LinuxSys", "CDRM"]),
        // The configuration's text: the INI reader, the table of keys and their values, the
        // files they name (checked by kind) and the theme file a face reads. What the text
        // means for a running lock (file safety, the state, the verdict) is GridlockDaemon's.
        // Links no drawing library: the look is judged by the `LookInspecting` it is handed.
        .target(
            name: "GridlockConfiguration",
            dependencies: ["GridlockCore", "GridlockThemeFiles", "GridlockInput", "LinuxSys", "CInih", "CSodium"]),
        // Command lines, read strictly (every program's options); depends on nothing but the core.
        .target(name: "GridlockArguments", dependencies: ["GridlockCore"]),
        // The panel's display and touchscreen made from `[display]` and `[touch]`: the one
        // place that chooses their backends.
        .target(
            name: "GridlockDevices",
            dependencies: ["GridlockConfiguration", "GridlockDisplay", "GridlockEvdev", "GridlockInput", "GridlockCore", "LinuxSys"]),
        // The verifier and the lock's wiring: the configuration's verdict, hashes, the state
        // file, lockout, actions, hooks, the session socket, `Daemon`. Links no display,
        // touch, font or image library: what it shows on comes in as a `LockPresenter`.
        .target(
            name: "GridlockDaemon",
            dependencies: ["GridlockCore", "GridlockConfiguration", "GridlockArguments", "GridlockInput", "GridlockThemeFiles", "LinuxSys", "CInih", "CSodium"]
        ),
        // The panel drawn and read by the daemon's own process: `LockScreen` as its
        // `LockPresenter`, the beeper's sounds, the parts built from `[display]` and
        // `[touch]`, `gridlock replay` and `gridlock calibrate`.
        .target(
            name: "GridlockDaemonPanel",
            dependencies: ["GridlockDaemon", "GridlockDevices", "GridlockConfiguration", "GridlockCore", "GridlockInput", "GridlockEvdev", "GridlockDisplay", "GridlockRendering", "LinuxSys"]
        ),
        // `gridlock bench`'s scene, recordings, timings and instruction counts; what the
        // benchmark runs is the daemon, through its roles.
        .target(name: "GridlockBench", dependencies: ["GridlockCore", "GridlockDaemon", "GridlockDaemonPanel", "GridlockRendering", "GridlockInput", "LinuxSys"]),
        // A lock face in a user's session: the session socket's client side and the face's
        // shell; the Wayland adapter draws and reads the finger for it.
        .target(name: "GridlockFace", dependencies: ["GridlockCore", "LinuxSys"]),
        .target(name: "GridlockWayland", dependencies: ["CWaylandClient", "CWaylandProtocols", "LinuxSys", "GridlockCore"]),
        // The panel's face: DRM/KMS, evdev touch, the beeper and drawing around the face's
        // controller and session client. Run unprivileged; links nothing of the verifier's.
        .target(
            name: "GridlockPanel",
            dependencies: ["GridlockFace", "GridlockDevices", "GridlockConfiguration", "GridlockDisplay", "GridlockRendering", "GridlockEvdev", "GridlockInput", "GridlockCore", "LinuxSys"]),
        // The verifier: links no display, touch, font or image library (tests/e2e/run checks
        // with ldd); a configuration that draws runs gridlockd-single in its place.
        .executableTarget(name: "gridlockd", dependencies: ["GridlockDaemon", "GridlockConfiguration", "GridlockArguments", "LinuxSys"]),
        // gridlockd with the panel drawn and read in its own process, as root.
        .executableTarget(
            name: "gridlockd-single",
            dependencies: ["GridlockDaemon", "GridlockDaemonPanel", "GridlockRendering", "GridlockConfiguration", "GridlockArguments", "LinuxSys"]),
        .executableTarget(name: "gridlock", dependencies: ["GridlockDaemon", "GridlockDaemonPanel", "GridlockConfiguration", "GridlockBench", "GridlockArguments", "GridlockCore", "GridlockDisplay", "GridlockRendering", "GridlockInput", "GridlockEvdev", "LinuxSys"]),
        // The lock face: a Wayland client run as the session's user. The only program that
        // links libwayland; gridlockd and gridlock never do.
        .executableTarget(
            name: "gridlock-lock",
            dependencies: ["GridlockFace", "GridlockWayland", "GridlockArguments", "GridlockConfiguration", "GridlockRendering", "GridlockThemeFiles", "GridlockCore", "LinuxSys"]),

        // The panel's face as a program: `gridlock-panel`, a system user's, with no capabilities.
        .executableTarget(
            name: "gridlock-panel",
            dependencies: ["GridlockPanel", "GridlockDevices", "GridlockArguments", "GridlockConfiguration", "GridlockRendering", "GridlockCore", "LinuxSys"]),

        // Spawned by the crash-safety test and killed at random moments; not installed.
        .executableTarget(
            name: "gridlock-test-attempt-writer", dependencies: ["GridlockDaemon", "GridlockConfiguration"], path: "Tests/Tools/AttemptWriter"),
        // Runs one saved fuzz input in a process of its own for the fuzz regression test; not installed.
        .executableTarget(
            name: "gridlock-test-fuzz-replay", dependencies: ["GridlockFuzzing", "LinuxSys"], path: "Tests/Tools/FuzzReplay"),
        // The fuzz targets' code, shared by the fuzzers (Fuzz/Package.swift) and the test that
        // replays their regression inputs; plain Swift, built with everything else.
        .target(
            name: "GridlockFuzzing", dependencies: ["GridlockCore", "GridlockInput", "GridlockDaemon", "LinuxSys", "CSodium"],
            path: "Fuzz/Targets"),

        .testTarget(name: "GridlockCoreTests", dependencies: ["GridlockCore"]),
        .testTarget(name: "LinuxSysTests", dependencies: ["LinuxSys", "GridlockCore"]),
        .testTarget(name: "GridlockInputTests", dependencies: ["GridlockInput", "GridlockEvdev", "GridlockCore", "LinuxSys"]),
        .testTarget(name: "GridlockDisplayTests", dependencies: ["GridlockDisplay", "GridlockRendering", "GridlockThemeFiles", "GridlockCore", "LinuxSys", "CDRM"]),
        .testTarget(name: "GridlockWaylandTests", dependencies: ["GridlockWayland", "LinuxSys", "GridlockCore"]),
        .testTarget(
            name: "GridlockDaemonTests",
            dependencies: ["GridlockDaemon", "GridlockDaemonPanel", "GridlockConfiguration", "GridlockBench", "GridlockArguments", "GridlockFuzzing", "GridlockFace", "GridlockPanel", "GridlockCore", "GridlockDisplay", "GridlockRendering", "GridlockThemeFiles", "GridlockInput", "GridlockEvdev", "LinuxSys", "CSodium"]),
    ]
)
