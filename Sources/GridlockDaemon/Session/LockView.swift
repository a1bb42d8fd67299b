import GridlockCore

/// What of the lock a face cannot foresee from a status it was told: the grid it draws, the
/// shortest stroke checked, and when the lockout in force ends. A countdown running out is
/// foreseen (the face counts it down itself); whether a check would be busy this instant is
/// not news worth a message. `SessionServer` tells a face watching the lock when this changes.
struct LockView: Hashable {
    var rows: Int
    var columns: Int
    var minimumNodes: Int
    var lockoutEnds: Instant?

    /// For the journal: what changed since `told`.
    func change(from told: LockView?) -> String {
        guard let told else { return "first told" }
        var changes: [String] = []
        if rows != told.rows || columns != told.columns { changes.append("grid \(told.rows)x\(told.columns) -> \(rows)x\(columns)") }
        if minimumNodes != told.minimumNodes { changes.append("min-nodes \(told.minimumNodes) -> \(minimumNodes)") }
        switch (told.lockoutEnds, lockoutEnds) {
        case (nil, .some): changes.append("a lockout began")
        case (.some, nil): changes.append("the lockout ended")
        case (.some, .some) where told.lockoutEnds != lockoutEnds: changes.append("another lockout")
        default: break
        }
        return changes.joined(separator: ", ")
    }
}
