import GridlockConfiguration
import GridlockArguments
import LinuxSys

/// A failure that means a particular exit status (sysexits.h) when a command ends with it;
/// `gridlock` returns 1 for any other.
public protocol FailureStatus: Error {
    var exitStatus: Int32 { get }
}

extension UsageError: FailureStatus {
    /// EX_USAGE.
    public var exitStatus: Int32 { 64 }
}

extension ConfigError: FailureStatus {
    /// EX_CONFIG, as `gridlockd` and `gridlock check-config` exit on the same configuration.
    public var exitStatus: Int32 { 78 }
}

extension EnrollmentError: FailureStatus {
    public var exitStatus: Int32 {
        switch self {
        case .invalidName, .unwritableValue: 64
        case .configRejected: 78
        case .nameTaken, .dropInHoldsMore, .cannotWrite, .readBackDiffers: 1
        }
    }
}

extension BoundedReadError {
    /// Whether running as root would have let `user` read the file: only when the kernel
    /// refused a user other than root. A file too large, not a regular file, or refused to
    /// root itself is not helped by it, and the advice would send someone the wrong way.
    public func isPermissionDenial(forUser user: UInt32) -> Bool {
        user != 0 && (errno == .permissionDenied || errno == .notPermitted)
    }
}
