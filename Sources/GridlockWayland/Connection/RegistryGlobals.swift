/// One global the compositor announced on the registry.
public struct RegistryGlobal: Hashable, Sendable {
    public let name: UInt32
    public let interface: String
    public let version: UInt32

    public init(name: UInt32, interface: String, version: UInt32) {
        self.name = name
        self.interface = interface
        self.version = version
    }
}

/// The registry's globals as announced and withdrawn, by their numeric name.
public struct RegistryGlobals: Hashable, Sendable {
    public private(set) var byName: [UInt32: RegistryGlobal] = [:]

    public init(_ globals: [RegistryGlobal] = []) {
        for global in globals { add(global) }
    }

    public mutating func add(_ global: RegistryGlobal) { byName[global.name] = global }

    @discardableResult
    public mutating func remove(name: UInt32) -> RegistryGlobal? { byName.removeValue(forKey: name) }

    /// The lowest-numbered global of `interface` (singletons such as wl_compositor).
    public func first(_ interface: String) -> RegistryGlobal? { all(interface).first }

    /// Every global of `interface` (wl_output, wl_seat), in announcement order.
    public func all(_ interface: String) -> [RegistryGlobal] {
        byName.values.filter { $0.interface == interface }.sorted { $0.name < $1.name }
    }

    /// Each requirement not met, as `interface` or `interface version N (has M)`.
    public func unmet(_ requirements: [RequiredGlobals.Requirement]) -> [String] {
        requirements.compactMap { requirement in
            guard let global = first(requirement.interface) else { return requirement.interface }
            guard global.version >= requirement.minimumVersion else {
                return "\(requirement.interface) version \(requirement.minimumVersion) (has \(global.version))"
            }
            return nil
        }
    }
}

/// What the lock face binds, and at which version.
public enum RequiredGlobals {
    public struct Requirement: Hashable, Sendable {
        public let interface: String
        public let minimumVersion: UInt32
        /// The newest version whose requests and events this adapter knows.
        public let maximumVersion: UInt32
    }

    public static let sessionLockManager = "ext_session_lock_manager_v1"
    public static let idleNotifier = "ext_idle_notifier_v1"

    /// wl_compositor 4 for wl_surface.damage_buffer; wl_seat 5 for wl_pointer.frame is
    /// used when offered, not required.
    public static let lockFace: [Requirement] = [
        Requirement(interface: "wl_compositor", minimumVersion: 4, maximumVersion: 4),
        Requirement(interface: "wl_shm", minimumVersion: 1, maximumVersion: 1),
        Requirement(interface: sessionLockManager, minimumVersion: 1, maximumVersion: 1),
    ]
    /// Bound each; wl_output 2 brings the scale, 3 release, 4 the name.
    public static let output = Requirement(interface: "wl_output", minimumVersion: 2, maximumVersion: 4)
    public static let seat = Requirement(interface: "wl_seat", minimumVersion: 1, maximumVersion: 5)
    /// Optional: without it, relocking after idleness is not offered.
    public static let idle = Requirement(interface: idleNotifier, minimumVersion: 1, maximumVersion: 1)

    /// The version to bind an announced global at: the newest both sides know.
    public static func bindVersion(_ global: RegistryGlobal, _ requirement: Requirement) -> UInt32 {
        min(global.version, requirement.maximumVersion)
    }
}
