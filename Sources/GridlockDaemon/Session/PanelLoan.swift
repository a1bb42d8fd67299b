import GridlockCore

/// The panel lent by gridlockd to root's `gridlock enroll` or `gridlock calibrate`: who
/// asked, which faces were told, and what for. One at a time; while it lasts nothing is
/// checked.
struct PanelLoan {
    let asker: SessionServer.ConnectionID
    /// `enrolling` or `calibrating`.
    let mode: PanelMode
    /// The faces told of it, one of which sends what it was lent for.
    var faces: Set<SessionServer.ConnectionID> = []

    init(asker: SessionServer.ConnectionID, mode: PanelMode) {
        self.asker = asker
        self.mode = mode
    }

    /// The journal's words for a loan of `mode`.
    struct Purpose {
        let noun: String
        let asked: String
        let command: String
        let delivered: String
        let missing: String
        let event: String
        let eventDone: String
    }

    static func purpose(_ mode: PanelMode) -> Purpose {
        if mode == .calibrating {
            Purpose(noun: "calibration", asked: "calibration's crosses", command: "gridlock calibrate", delivered: "the taps", missing: "taps",
                    event: "calibrate", eventDone: "tapped")
        } else {
            Purpose(noun: "enrolment", asked: "a pattern drawn", command: "gridlock enroll", delivered: "the pattern drawn", missing: "a pattern",
                    event: "enrol", eventDone: "drawn")
        }
    }
}

extension SessionReply {
    /// How much a face delivered, for the journal (a pattern's count of nodes, never the nodes).
    var deliveredSize: String {
        if case .enrollment(let nodes) = self { " (\(nodes.count) nodes)" } else { "" }
    }
}
