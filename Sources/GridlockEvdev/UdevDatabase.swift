import GridlockInput
import LinuxSys

/// The few udev properties gridlock reads, straight from udev's database files
/// (`/run/udev/data/c<major>:<minor>`, one `E:KEY=VALUE` line per property), so no
/// libudev is needed. Its format is udev's internal one but has been stable since 2012,
/// and libinput's users set LIBINPUT_CALIBRATION_MATRIX there through rules and hwdb.
public enum UdevDatabase {
    public static let defaultDirectory = "/run/udev/data"

    /// The `E:` properties of one database file; other lines (S: links, G: tags...) are skipped.
    public static func properties(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("E:") {
            let body = line.dropFirst(2)
            guard let equals = body.firstIndex(of: "="), equals != body.startIndex else { continue }
            result[String(body[..<equals])] = String(body[body.index(after: equals)...])
        }
        return result
    }

    public static func path(for device: DeviceNumber, directory: String = defaultDirectory) -> String {
        "\(directory)/c\(device.major):\(device.minor)"
    }

    /// What the database says about a device's calibration.
    public enum Calibration: Hashable, Sendable {
        /// No database entry, or no LIBINPUT_CALIBRATION_MATRIX in it.
        case none
        case matrix(CalibrationMatrix, source: String)
        /// Present but unusable; the text says why, for the log.
        case invalid(String, source: String)
    }

    public static func calibration(properties: [String: String], source: String) -> Calibration {
        guard let text = properties["LIBINPUT_CALIBRATION_MATRIX"] else { return .none }
        do {
            return .matrix(try CalibrationMatrix(parsing: text), source: source)
        } catch {
            return .invalid("LIBINPUT_CALIBRATION_MATRIX=\(text): \(error)", source: source)
        }
    }

    /// Reads the database file of the device `descriptor` is open on. A missing file is
    /// `.none` (no udev, or udev has not processed the device yet); an unreadable one too,
    /// with the reason, since calibration is optional.
    public static func calibration(
        of descriptor: FileDescriptor, directory: String = defaultDirectory
    ) -> Calibration {
        let number: DeviceNumber
        do {
            guard let found = try descriptor.deviceNumber() else { return .none }
            number = found
        } catch {
            return .invalid("\(error)", source: "fstat")
        }
        let file = path(for: number, directory: directory)
        do {
            guard let bytes = try AtomicFile.read(file) else { return .none }
            return calibration(properties: properties(String(decoding: bytes, as: UTF8.self)), source: file)
        } catch {
            return .invalid("\(error)", source: file)
        }
    }
}
