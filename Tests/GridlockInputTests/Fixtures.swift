import Foundation
import GridlockCore
import GridlockInput

/// Reads the shared evemu fixtures in Tests/Fixtures, found from this file's path so the
/// tests run from any working directory.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func recording(_ name: String) throws -> EvemuRecording {
        try EvemuRecording(parsing: text(name), file: name)
    }

    static func device(_ name: String) throws -> DeviceDescription {
        try recording("devices/\(name).evemu").device
    }

    static func names(in subdirectory: String = "") throws -> [String] {
        let url = subdirectory.isEmpty ? directory : directory.appendingPathComponent(subdirectory)
        return try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasSuffix(".evemu") }
            .map { subdirectory.isEmpty ? $0 : "\(subdirectory)/\($0)" }
            .sorted()
    }

    /// The screen each generated recording was drawn for (see tools/make-recording.py).
    static func screen(for device: DeviceDescription) -> Size? {
        switch device.name {
        case "ILITEK ILITEK-TP": Size(width: 1280, height: 800)
        case "FT5406 memory based driver", "Goodix Capacitive TouchScreen": Size(width: 800, height: 480)
        case "eGalax Inc. USB TouchController": Size(width: 1024, height: 768)
        case "ft5x0x_ts": Size(width: 1024, height: 600)
        default: nil
        }
    }
}
