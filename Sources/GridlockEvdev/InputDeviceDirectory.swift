import GridlockInput
import LinuxSys

/// Reading `/dev/input`: which event nodes exist and what each one is.
public enum InputDeviceDirectory {
    public static let defaultPath = "/dev/input"

    /// `eventN` names only: `mouseN`/`jsN` are legacy interfaces of the same devices,
    /// and `by-path`/`by-id` hold links to the event nodes.
    public static func isEventNode(_ name: String) -> Bool {
        name.hasPrefix("event") && name.count > 5 && name.dropFirst(5).allSatisfy(\.isASCIIDigit)
    }

    /// The event nodes in `directory`, in event number order (event2 before event10).
    /// A missing directory is no nodes: a machine may boot before any input device exists.
    public static func eventNodes(in directory: String) throws(SystemCallError) -> [String] {
        let names: [String]
        do {
            names = try Directory.entries(directory)
        } catch where error.errno == .noSuchFile {
            return []
        }
        return names.filter(isEventNode).sorted { eventNumber($0) < eventNumber($1) }.map { "\(directory)/\($0)" }
    }

    /// Opens each node just long enough to read its description. No grab, and the clock is
    /// left alone: another program may be reading these devices.
    public static func scan(_ directory: String) throws(SystemCallError) -> [ScannedDevice] {
        try eventNodes(in: directory).map(describe)
    }

    public static func describe(_ path: String) -> ScannedDevice {
        do {
            let device = try EvdevDevice(path: path, monotonicClock: false)
            defer { device.close() }
            return ScannedDevice(path: path, device: .success(device.description))
        } catch {
            return ScannedDevice(path: path, device: .failure(error))
        }
    }

    static func sortedByEventNumber(_ nodes: [ScannedDevice]) -> [ScannedDevice] {
        nodes.enumerated().sorted { a, b in
            let (x, y) = (eventNumber(a.element.path), eventNumber(b.element.path))
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// The N of `.../eventN`; nodes without one sort last, in their given order.
    static func eventNumber(_ path: String) -> Int {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard isEventNode(name), let number = Int(name.dropFirst(5)) else { return Int.max }
        return number
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
