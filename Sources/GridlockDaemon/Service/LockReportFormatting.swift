import GridlockCore
import LinuxSys

/// How each outcome reads in the journal and in `gridlock replay`'s JSON lines.
/// Nothing here can print a node sequence: `LockReport` does not carry one.
extension LockReport {
    public var priority: LogPriority {
        switch self {
        case .accepted, .lockoutEnded, .enrollmentConfirmed: .notice
        case .rejected, .lockout: .warning
        case .notRecorded: .critical
        case .tooShort, .strokeCancelled, .enrollmentFirstDrawn, .enrollmentMismatch, .enrollmentTooShort: .info
        }
    }

    public var logMessage: String {
        switch self {
        case .accepted(let name, let nodes): "attempt accepted: pattern \(name) (\(nodes) nodes)"
        case .rejected(let nodes, let failures): "attempt rejected (\(nodes) nodes, \(failures) consecutive failures)"
        case .tooShort(let nodes): "attempt too short (\(nodes) nodes), not counted"
        case .lockout(let seconds, let failures): "locked out for \(seconds) s after \(failures) consecutive failures"
        case .lockoutEnded: "lockout ended"
        case .strokeCancelled(let reason): "stroke cancelled (\(reason.rawValue)), not counted"
        case .enrollmentFirstDrawn(let nodes): "enrollment: first drawing (\(nodes) nodes), waiting for confirmation"
        case .enrollmentMismatch: "enrollment: confirmation did not match, starting over"
        case .enrollmentTooShort(let nodes): "enrollment: drawing too short (\(nodes) nodes)"
        case .enrollmentConfirmed(let nodes): "enrollment: pattern confirmed (\(nodes) nodes)"
        case .notRecorded(let nodes): "attempt not checked (\(nodes) nodes): its failure could not be recorded; the lock stays shut"
        }
    }

    /// The fields of the JSON line, `event` first.
    public var jsonFields: [(String, JSONValue)] {
        switch self {
        case .accepted(let name, let nodes):
            [("event", "attempt"), ("result", "accepted"), ("pattern", .string(name)), ("nodes", .int(nodes))]
        case .rejected(let nodes, let failures):
            [("event", "attempt"), ("result", "rejected"), ("nodes", .int(nodes)), ("failures", .int(failures))]
        case .tooShort(let nodes):
            [("event", "attempt"), ("result", "too-short"), ("nodes", .int(nodes))]
        case .lockout(let seconds, let failures):
            [("event", "lockout"), ("seconds", .int(seconds)), ("failures", .int(failures))]
        case .lockoutEnded:
            [("event", "lockout-ended")]
        case .strokeCancelled(let reason):
            [("event", "cancelled"), ("reason", .string(reason.rawValue))]
        case .enrollmentFirstDrawn(let nodes):
            [("event", "enroll"), ("step", "first"), ("nodes", .int(nodes))]
        case .enrollmentMismatch:
            [("event", "enroll"), ("step", "mismatch")]
        case .enrollmentTooShort(let nodes):
            [("event", "enroll"), ("step", "too-short"), ("nodes", .int(nodes))]
        case .enrollmentConfirmed(let nodes):
            [("event", "enroll"), ("step", "confirmed"), ("nodes", .int(nodes))]
        case .notRecorded(let nodes):
            [("event", "attempt"), ("result", "not-recorded"), ("nodes", .int(nodes))]
        }
    }
}

/// Just enough JSON for one-object-per-line output.
public enum JSONValue: ExpressibleByStringLiteral {
    case string(String)
    case int(Int)
    case double(Double, decimals: Int)
    case bool(Bool)
    case null

    public init(stringLiteral value: String) { self = .string(value) }

    var encoded: String {
        switch self {
        case .string(let s): JSONValue.quote(s)
        case .int(let n): String(n)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .double(let d, let decimals): fixedDecimal(d, decimals: decimals)
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = Array("0123456789abcdef")
                out += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 15)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `{"a":1,"b":"x"}` in the given field order.
    public static func object(_ fields: [(String, JSONValue)]) -> String {
        "{" + fields.map { quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
    }
}
