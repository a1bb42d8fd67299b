import GridlockInput
import LinuxSys

/// The I/O `EvdevTouchSource` does to find and open devices, behind a protocol so its
/// logic (choice, loss, hotplug, grab, calibration) runs in tests without a kernel device.
public protocol EvdevEnvironment {
    /// Every event node in `directory` with its description or why it is unreadable.
    func scan(_ directory: String) throws(SystemCallError) -> [ScannedDevice]
    func describe(_ path: String) -> ScannedDevice
    /// A configured path with links resolved (`by-path`/`by-id` to `eventN`).
    func resolve(_ path: String) throws(SystemCallError) -> String
    func open(_ path: String) throws(EvdevError) -> any EvdevDeviceHandle
    func udevCalibration(of device: any EvdevDeviceHandle) -> UdevDatabase.Calibration
}

/// The real one: libevdev on device nodes, udev's database files for calibration.
public struct LibevdevEnvironment: EvdevEnvironment {
    public var udevDirectory: String

    public init(udevDirectory: String = UdevDatabase.defaultDirectory) {
        self.udevDirectory = udevDirectory
    }

    public func scan(_ directory: String) throws(SystemCallError) -> [ScannedDevice] {
        try InputDeviceDirectory.scan(directory)
    }

    public func describe(_ path: String) -> ScannedDevice { InputDeviceDirectory.describe(path) }

    public func resolve(_ path: String) throws(SystemCallError) -> String { try PathLookup.resolve(path) }

    public func open(_ path: String) throws(EvdevError) -> any EvdevDeviceHandle {
        try EvdevDevice(path: path)
    }

    public func udevCalibration(of device: any EvdevDeviceHandle) -> UdevDatabase.Calibration {
        UdevDatabase.calibration(of: device.fileDescriptor, directory: udevDirectory)
    }
}
