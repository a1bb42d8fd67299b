import Glibc

public enum ProcessEnvironment {
    /// The variable's value; nil when it is not set.
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}

/// Ends this process with `status` the way returning from C's main does: what `print`
/// has buffered is flushed first.
public func exitProcess(_ status: Int32) -> Never {
    exit(status)
}
