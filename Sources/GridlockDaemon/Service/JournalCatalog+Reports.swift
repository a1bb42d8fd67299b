import GridlockCore
import LinuxSys

/// How gridlockd's reports become journal fields.
extension JournalCatalog {
    /// `GRIDLOCK_` and the name in capitals, `-` as `_`: `failures` -> `GRIDLOCK_FAILURES`.
    static func fieldName(_ key: String) -> String {
        "GRIDLOCK_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The replay's JSON fields as journal fields: one list of facts for both.
    static func fields(_ json: [(String, JSONValue)]) -> [String: String] {
        var fields: [String: String] = [:]
        for (key, value) in json { fields[fieldName(key)] = value.plainText }
        return fields
    }
}

extension String {
    /// Foundation-free replacement, enough for field names.
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}

extension JSONValue {
    /// The value as journal field text: strings bare, numbers as JSON writes them.
    var plainText: String {
        if case .string(let text) = self { return text }
        return encoded
    }
}

extension LockReport {
    /// `GRIDLOCK_EVENT`, `GRIDLOCK_RESULT`, `GRIDLOCK_PATTERN` (a name, never nodes),
    /// `GRIDLOCK_NODES`, `GRIDLOCK_FAILURES`, `GRIDLOCK_SECONDS`..., the fields of the replay's line.
    public var journalFields: JournalFields {
        var fields = JournalCatalog.fields(jsonFields)
        if case .lockout(let seconds, _) = self { fields["GRIDLOCK_LOCKOUT_SECONDS"] = String(seconds) }
        return JournalFields(messageID: messageID, fields: fields)
    }

    private var messageID: String {
        switch self {
        case .accepted: JournalCatalog.unlock
        case .rejected, .tooShort, .notRecorded: JournalCatalog.attempt
        case .lockout: JournalCatalog.lockout
        case .lockoutEnded: JournalCatalog.lockoutEnded
        case .strokeCancelled: JournalCatalog.strokeCancelled
        case .enrollmentFirstDrawn, .enrollmentMismatch, .enrollmentTooShort, .enrollmentConfirmed: JournalCatalog.enrollment
        }
    }
}

extension ActionReport {
    /// `GRIDLOCK_EVENT` (`action`, `action-output`, `duress`, ...), `GRIDLOCK_PATTERN`, and for
    /// an ended program `GRIDLOCK_ACTION_STATUS` (the exit status; 128 + N for signal N).
    public var journalFields: JournalFields {
        switch self {
        case .finished(let name, let duress, let status):
            var fields = ["GRIDLOCK_EVENT": "action", "GRIDLOCK_PATTERN": name, "GRIDLOCK_ACTION_STATUS": String(status.shellStatus)]
            if duress { fields["GRIDLOCK_DURESS"] = "1" }
            return JournalFields(messageID: JournalCatalog.actionExit, fields: fields)
        case .duressUsed(let name):
            return JournalFields(messageID: JournalCatalog.duress, fields: ["GRIDLOCK_EVENT": "duress", "GRIDLOCK_PATTERN": name])
        case .tookBack:
            return JournalFields(messageID: JournalCatalog.action, fields: ["GRIDLOCK_EVENT": "took-back"])
        case .handedOver(let name), .output(let name, _), .outputDropped(let name, _), .couldNotStart(let name, _, _), .timedOut(let name, _),
             .stopping(let name), .leftProcessesBehind(let name), .failed(let name, _):
            return JournalFields(messageID: JournalCatalog.action, fields: ["GRIDLOCK_EVENT": event, "GRIDLOCK_PATTERN": name])
        }
    }

    private var event: String {
        switch self {
        case .handedOver: "handed-over"
        case .output: "action-output"
        case .outputDropped: "action-output-dropped"
        case .couldNotStart: "action-not-started"
        case .timedOut: "action-timeout"
        case .stopping: "action-stopping"
        case .leftProcessesBehind: "action-left-processes"
        case .failed: "action-error"
        case .finished: "action"
        case .duressUsed: "duress"
        case .tookBack: "took-back"
        }
    }
}
