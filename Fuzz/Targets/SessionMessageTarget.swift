import GridlockCore

extension FuzzTargets {
    /// The session socket's messages (`SessionRequest`, what gridlockd reads from a face, and
    /// `SessionReply`, what a face reads): every input decodes or is a typed error, and what
    /// decodes is canonical: encoded again, it is the same bytes.
    static let sessionMessage = FuzzTarget(
        name: "session-message",
        summary: "session socket requests and replies: a decoded message is on the grid, distinct, and encodes back to its bytes",
        maximumLength: 2 * SessionProtocol.maximumLength,
        run: { bytes throws(FuzzFinding) in
            guard let first = bytes.first else { return }
            // The first byte picks the server's grid, as [grid] allows (2 to 8 each way).
            let dimensions = GridShape.allowedDimensions
            let rows = dimensions.lowerBound + Int(first & 0x0f) % dimensions.count
            let columns = dimensions.lowerBound + Int(first >> 4) % dimensions.count
            let message = Array(bytes.dropFirst())
            if let request = try? SessionRequest(decoding: message, nodeCount: rows * columns) {
                if case .check(let nodes) = request {
                    try require(!nodes.isEmpty, "accepted a check with no nodes: \(quoted(message))")
                    try require(nodes.allSatisfy { (0..<(rows * columns)).contains($0) },
                                "accepted a node off the \(rows)x\(columns) grid: \(nodes)")
                    try require(Set(nodes).count == nodes.count, "accepted a repeated node: \(nodes)")
                }
                // In the version it came in: a face of version 1 is answered in version 1.
                let version = message[2]
                try require(request.sinceVersion <= version, "accepted \(request) in version \(version), which has no such request")
                try require(request.encoded(version: version) == message, "request \(request) encodes to other bytes than \(quoted(message))")
            }
            if let reply = try? SessionReply(decoding: message) {
                try require(reply.encoded(version: message[2]) == message, "reply \(reply) encodes to other bytes than \(quoted(message))")
            }
        },
        seeds: { _ in
            let status = SessionStatus(state: .lockedOut(seconds: 30), rows: 3, columns: 3, minimumNodes: 4)
            let messages: [(String, UInt8, [UInt8])] = [
                ("check-3x3-1-2-3-6-9", 0x11, SessionRequest.check(nodes: [0, 1, 2, 5, 8]).encoded),
                ("check-8x8-every-node", 0x66, SessionRequest.check(nodes: Array(0..<64)).encoded),
                ("status", 0x11, SessionRequest.status.encoded),
                ("status-version-1", 0x11, SessionRequest.status.encoded(version: 1)),
                ("report", 0x11, SessionRequest.report(.touchscreenGone).encoded),
                ("report-version-1", 0x11, SessionRequest.report(.displayGone).encoded(version: 1)),
                ("noted", 0x11, SessionReply.noted.encoded),
                ("accepted", 0x11, SessionReply.accepted.encoded),
                ("rejected", 0x11, SessionReply.rejected(failures: 3, remainingBeforeLockout: 2).encoded),
                ("rejected-never", 0x11, SessionReply.rejected(failures: 3, remainingBeforeLockout: nil).encoded),
                ("locked-out", 0x11, SessionReply.lockedOut(seconds: 30).encoded),
                ("not-checked-busy", 0x11, SessionReply.notChecked(.busy).encoded),
                ("status-reply", 0x11, SessionReply.status(status).encoded),
                ("watch-panel", 0x11, SessionRequest.watchPanel(.lock).encoded),
                ("panel-handed-over", 0x11, SessionReply.panelMode(.handedOver).encoded),
                ("status-handed-over", 0x11, SessionReply.status(SessionStatus(state: .handedOver, rows: 3, columns: 3, minimumNodes: 4)).encoded),
                ("status-handed-over-version-2", 0x11, [0x47, 0x4C, 2, 0x85, 3, 0, 3, 3, 4, 0, 0, 0, 0]),
                ("check-repeated", 0x11, [0x47, 0x4C, 1, 0x01, 3, 1, 2, 1]),
                ("watch-lock", 0x11, SessionRequest.watchLock.encoded),
                ("lock-changed", 0x11, SessionReply.lockChanged(status).encoded),
                ("lock-changed-version-3", 0x11, [0x47, 0x4C, 3, 0x88, 0, 0, 3, 3, 4, 0, 0, 0, 0]),
                ("enroll", 0x11, SessionRequest.enroll.encoded),
                ("enrolled-3x3", 0x11, SessionRequest.enrolled(nodes: [0, 1, 2, 5, 8]).encoded),
                ("enrollment", 0x11, SessionReply.enrollment(nodes: [0, 1, 2, 5, 8]).encoded),
                ("watch-panel-enrolling-version-3", 0x11, [0x47, 0x4C, 3, 0x04, 2]),
                ("version-5", 0x11, [0x47, 0x4C, 5, 0x02]),
            ]
            return messages.map { name, shape, bytes in FuzzSeed(name, [shape] + bytes) }
        })
}
