import Testing
@testable import GridlockCore

private func decodeError(_ bytes: [UInt8], nodeCount: Int = 9) -> SessionDecodeError? {
    expectError(SessionDecodeError.self) { try SessionRequest(decoding: bytes, nodeCount: nodeCount) }
}

private func replyError(_ bytes: [UInt8]) -> SessionDecodeError? {
    expectError(SessionDecodeError.self) { try SessionReply(decoding: bytes) }
}

private let header: [UInt8] = [0x47, 0x4C, 5]
private let headerV4: [UInt8] = [0x47, 0x4C, 4]
private let headerV3: [UInt8] = [0x47, 0x4C, 3]
private let headerV2: [UInt8] = [0x47, 0x4C, 2]
private let headerV1: [UInt8] = [0x47, 0x4C, 1]

@Suite("Session protocol messages")
struct SessionMessageTests {
    @Test("a check is the header, a count and the nodes numbered from 1")
    func checkLayout() throws {
        #expect(SessionRequest.check(nodes: [0, 1, 2, 5, 8]).encoded == header + [0x01, 5, 1, 2, 3, 6, 9])
        #expect(SessionRequest.status.encoded == header + [0x02])
        #expect(try SessionRequest(decoding: header + [0x01, 3, 9, 5, 1], nodeCount: 9) == .check(nodes: [8, 4, 0]))
    }

    @Test("version 1 is the same bytes under its own version byte, and reads back; a report and its noted exist from version 2 only")
    func versionOne() throws {
        #expect(SessionRequest.check(nodes: [0, 1, 2, 5, 8]).encoded(version: 1) == headerV1 + [0x01, 5, 1, 2, 3, 6, 9])
        #expect(try SessionRequest(decoding: headerV1 + [0x02], nodeCount: 9) == .status)
        #expect(SessionReply.rejected(failures: 3, remainingBeforeLockout: 2).encoded(version: 1) == headerV1 + [0x82, 0, 0, 0, 3, 0, 0, 0, 2])
        #expect(try SessionReply(decoding: headerV1 + [0x84, 4]) == .notChecked(.unsupportedVersion))
        #expect(SessionRequest.report(.touchscreenGone).encoded == header + [0x03, 1])
        #expect(SessionReply.noted.encoded == header + [0x86])
        for event in FaceEvent.allCases {
            #expect(try SessionRequest(decoding: header + [0x03, event.rawValue], nodeCount: 9) == .report(event))
        }
        #expect(decodeError(headerV1 + [0x03, 1]) == .unknownType(0x03))
        #expect(replyError(headerV1 + [0x86]) == .unknownType(0x86))
        #expect(decodeError(header + [0x03, 0]) == .unknownEvent(0))
        #expect(decodeError(header + [0x03, 6]) == .unknownEvent(6))
        #expect(decodeError(header + [0x03, 0xFF]) == .unknownEvent(0xFF))
        #expect(decodeError(header + [0x03]) == .wrongLength(type: 0x03, expected: 5, actual: 4))
        #expect(decodeError(header + [0x03, 1, 1]) == .wrongLength(type: 0x03, expected: 5, actual: 6))
    }

    @Test("version 3's handover: watchPanel, panelMode and the handedOver status have their bytes, and none exists before version 3")
    func versionThreeHandover() throws {
        for mode in PanelMode.allCases where mode.sinceVersion <= 3 {
            #expect(SessionRequest.watchPanel(mode).encoded(version: 3) == headerV3 + [0x04, mode.rawValue])
            #expect(try SessionRequest(decoding: headerV3 + [0x04, mode.rawValue], nodeCount: 9) == .watchPanel(mode))
            #expect(SessionRequest.watchPanel(mode).encoded == header + [0x04, mode.rawValue])
            #expect(try SessionRequest(decoding: header + [0x04, mode.rawValue], nodeCount: 9) == .watchPanel(mode))
            #expect(SessionReply.panelMode(mode).encoded == header + [0x87, mode.rawValue])
            #expect(try SessionReply(decoding: header + [0x87, mode.rawValue]) == .panelMode(mode))
        }
        #expect(PanelMode.allCases.map(\.rawValue) == [0, 1, 2, 3])
        let handedOver = SessionReply.status(SessionStatus(state: .handedOver, rows: 3, columns: 3, minimumNodes: 4))
        #expect(handedOver.encoded == header + [0x85, 3, 0, 3, 3, 4, 0, 0, 0, 0])
        #expect(try SessionReply(decoding: header + [0x85, 3, 0, 3, 3, 4, 0, 0, 0, 0]) == handedOver)
        // To a face of version 1 or 2 the panel handed over is what a check would get: busy.
        let busy = [0x85, 2, NotCheckedReason.busy.rawValue, 3, 3, 4, 0, 0, 0, 0] as [UInt8]
        #expect(handedOver.encoded(version: 2) == headerV2 + busy)
        #expect(handedOver.encoded(version: 1) == headerV1 + busy)
        for older in [headerV1, headerV2] {
            #expect(decodeError(older + [0x04, 0]) == .unknownType(0x04))
            #expect(replyError(older + [0x87, 0]) == .unknownType(0x87))
            #expect(replyError(older + [0x85, 3, 0, 3, 3, 4, 0, 0, 0, 0]) == .unknownState(3))
        }
        for mode in 4...255 {
            #expect(decodeError(header + [0x04, UInt8(mode)]) == .unknownPanelMode(UInt8(mode)))
            #expect(replyError(header + [0x87, UInt8(mode)]) == .unknownPanelMode(UInt8(mode)))
        }
        #expect(decodeError(header + [0x04]) == .wrongLength(type: 0x04, expected: 5, actual: 4))
        #expect(decodeError(header + [0x04, 0, 0]) == .wrongLength(type: 0x04, expected: 5, actual: 6))
        #expect(replyError(header + [0x87]) == .wrongLength(type: 0x87, expected: 5, actual: 4))
        #expect(replyError(header + [0x85, 3, 1, 3, 3, 4, 0, 0, 0, 0]) == .nonZeroUnused)
        #expect(replyError(header + [0x85, 3, 0, 3, 3, 4, 0, 0, 0, 1]) == .nonZeroUnused)
        #expect(replyError(header + [0x85, 4, 0, 3, 3, 4, 0, 0, 0, 0]) == .unknownState(4))
    }

    @Test("version 4's lock watch: watchLock and lockChanged have their bytes, a status's body, and neither exists before version 4")
    func versionFourLockWatch() throws {
        #expect(SessionProtocol.version == 5 && SessionProtocol.versions == 1...5)
        #expect(SessionRequest.watchLock.encoded == header + [0x05])
        #expect(try SessionRequest(decoding: header + [0x05], nodeCount: 9) == .watchLock)
        let states: [(SessionStatus.State, [UInt8])] = [
            (.ready, [0, 0, 4, 3, 5, 0, 0, 0, 0]), (.lockedOut(seconds: 300), [1, 0, 4, 3, 5, 0, 0, 1, 0x2C]),
            (.notChecking(.busy), [2, 1, 4, 3, 5, 0, 0, 0, 0]), (.handedOver, [3, 0, 4, 3, 5, 0, 0, 0, 0]),
        ]
        for (state, body) in states {
            let reply = SessionReply.lockChanged(SessionStatus(state: state, rows: 4, columns: 3, minimumNodes: 5))
            #expect(reply.encoded == header + [0x88] + body)
            #expect(try SessionReply(decoding: header + [0x88] + body) == reply)
        }
        for older in [headerV1, headerV2, headerV3] {
            #expect(decodeError(older + [0x05]) == .unknownType(0x05))
            #expect(replyError(older + [0x88, 0, 0, 3, 3, 4, 0, 0, 0, 0]) == .unknownType(0x88))
        }
        #expect(decodeError(header + [0x05, 0]) == .wrongLength(type: 0x05, expected: 4, actual: 5))
        #expect(replyError(header + [0x88, 0, 0, 3, 3, 4, 0, 0, 0]) == .wrongLength(type: 0x88, expected: 13, actual: 12))
        // The checks of a status's body hold for it too.
        #expect(replyError(header + [0x88, 0, 0, 9, 3, 4, 0, 0, 0, 0]) == .gridOutOfRange(rows: 9, columns: 3))
        #expect(replyError(header + [0x88, 0, 0, 3, 3, 4, 0, 0, 0, 1]) == .nonZeroUnused)
        #expect(replyError(header + [0x88, 5, 0, 3, 3, 4, 0, 0, 0, 0]) == .unknownState(5))
    }

    @Test("version 5's calibration: calibrate, calibrated, calibration and the calibrating panel have their bytes, the taps in millionths of the device's range, none before version 5")
    func versionFiveCalibration() throws {
        let taps = CalibrationTaps(
            rotation: .clockwise270, width: 1280, height: 800,
            touches: [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: -0.25), Point(x: 1.5, y: 0.9), Point(x: 0.1, y: 0.9), Point(x: 0.5, y: 0.5)])
        #expect(SessionRequest.calibrate.encoded == header + [0x08])
        #expect(try SessionRequest(decoding: header + [0x08], nodeCount: 9) == .calibrate)
        let body = Array(SessionRequest.calibrated(taps).encoded.dropFirst(4))
        // A quarter-turn count, the frame's sides, then x and y of each tap as signed 32-bit millionths.
        #expect(Array(body.prefix(13)) == [3, 0x05, 0x00, 0x03, 0x20, 0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0])
        #expect(Array(body[13..<21]) == [0x00, 0x0D, 0xBB, 0xA0, 0xFF, 0xFC, 0x2F, 0x70])
        #expect(body.count == 45)
        #expect(try SessionRequest(decoding: SessionRequest.calibrated(taps).encoded, nodeCount: 9) == .calibrated(taps))
        #expect(try SessionReply(decoding: SessionReply.calibration(taps).encoded) == .calibration(taps))
        #expect(Array(SessionReply.calibration(taps).encoded.prefix(4)) == header + [0x8A])
        #expect(SessionRequest.watchPanel(.calibrating).encoded == header + [0x04, 3])
        #expect(try SessionReply(decoding: header + [0x87, 3]) == .panelMode(.calibrating))
        // Refused: a rotation, a frame or a tap out of range, and a wrong length.
        let good = Array(SessionRequest.calibrated(taps).encoded)
        var bad = good
        bad[4] = 4
        #expect(decodeError(bad) == .wrongCalibration("unknown rotation 4"))
        bad = good
        bad[5] = 0
        bad[6] = 0
        #expect(decodeError(bad) == .wrongCalibration("a frame of 0x800"))
        bad = good
        bad[9...12] = [0x00, 0x2D, 0xC6, 0xC1]  // 3.000001
        #expect(decodeError(bad) == .wrongCalibration("tap 1 at 3.000001 of the device's range, outside -1.0...2.0"))
        #expect(decodeError(Array(good.dropLast())) == .wrongLength(type: 0x09, expected: 49, actual: 48))
        #expect(decodeError(header + [0x08, 0]) == .wrongLength(type: 0x08, expected: 4, actual: 5))
        #expect(replyError(header + [0x8A] + Array(body.dropLast())) == .wrongLength(type: 0x8A, expected: 49, actual: 48))
        for older in [headerV1, headerV2, headerV3, headerV4] {
            #expect(decodeError(older + [0x08]) == .unknownType(0x08))
            #expect(decodeError(older + [0x09] + Array(body)) == .unknownType(0x09))
            #expect(replyError(older + [0x8A] + Array(body)) == .unknownType(0x8A))
        }
        #expect(decodeError(headerV4 + [0x04, 3]) == .unknownPanelMode(3))
        #expect(replyError(headerV4 + [0x87, 3]) == .unknownPanelMode(3))
        // A touch that cannot be said is sent as one the reader refuses.
        let nan = CalibrationTaps(rotation: .none, width: 10, height: 10, touches: [Point(x: .nan, y: 0)])
        #expect(decodeError(SessionRequest.calibrated(nan).encoded) != nil)
    }

    @Test("version 4's enrolment: enroll, enrolled, enrollment, the enrolling panel and noPanelFace have their bytes, none before version 4")
    func versionFourEnrolment() throws {
        #expect(SessionRequest.enroll.encoded == header + [0x06])
        #expect(try SessionRequest(decoding: header + [0x06], nodeCount: 9) == .enroll)
        #expect(SessionRequest.enrolled(nodes: [0, 1, 2, 5, 8]).encoded == header + [0x07, 5, 1, 2, 3, 6, 9])
        #expect(try SessionRequest(decoding: header + [0x07, 3, 9, 5, 1], nodeCount: 9) == .enrolled(nodes: [8, 4, 0]))
        #expect(SessionReply.enrollment(nodes: [0, 1, 2, 5, 8]).encoded == header + [0x89, 5, 1, 2, 3, 6, 9])
        #expect(try SessionReply(decoding: header + [0x89, 5, 1, 2, 3, 6, 9]) == .enrollment(nodes: [0, 1, 2, 5, 8]))
        #expect(SessionRequest.watchPanel(.enrolling).encoded == header + [0x04, 2])
        #expect(try SessionReply(decoding: header + [0x87, 2]) == .panelMode(.enrolling))
        #expect(SessionReply.notChecked(.noPanelFace).encoded == header + [0x84, 9])
        // An enrolment's nodes are checked as a check's are.
        #expect(decodeError(header + [0x07, 0]) == .noNodes)
        #expect(decodeError(header + [0x07, 2, 1, 1]) == .repeatedNode(1))
        #expect(decodeError(header + [0x07, 2, 1, 10]) == .nodeOutOfRange(10, nodeCount: 9))
        #expect(decodeError(header + [0x07, 3, 1, 2]) == .wrongLength(type: 0x07, expected: 8, actual: 7))
        #expect(decodeError(header + [0x06, 0]) == .wrongLength(type: 0x06, expected: 4, actual: 5))
        #expect(replyError(header + [0x89, 2, 3, 3]) == .repeatedNode(3))
        #expect(replyError(header + [0x89, 1, 65]) == .nodeOutOfRange(65, nodeCount: 64))
        #expect(replyError(header + [0x89]) == .wrongLength(type: 0x89, expected: 5, actual: 4))
        for older in [headerV1, headerV2, headerV3] {
            #expect(decodeError(older + [0x06]) == .unknownType(0x06))
            #expect(decodeError(older + [0x07, 1, 1]) == .unknownType(0x07))
            #expect(replyError(older + [0x89, 1, 1]) == .unknownType(0x89))
        }
        #expect(decodeError(headerV3 + [0x04, 2]) == .unknownPanelMode(2))
        #expect(replyError(headerV3 + [0x87, 2]) == .unknownPanelMode(2))
    }

    @Test("replies have the documented bytes, counts big-endian")
    func replyLayout() {
        #expect(SessionReply.accepted.encoded == header + [0x81])
        #expect(SessionReply.rejected(failures: 3, remainingBeforeLockout: 2).encoded == header + [0x82, 0, 0, 0, 3, 0, 0, 0, 2])
        #expect(SessionReply.rejected(failures: 260, remainingBeforeLockout: nil).encoded
            == header + [0x82, 0, 0, 1, 4, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(SessionReply.lockedOut(seconds: 86_400).encoded == header + [0x83, 0, 1, 0x51, 0x80])
        #expect(SessionReply.notChecked(.busy).encoded == header + [0x84, 1])
        #expect(SessionReply.status(SessionStatus(state: .lockedOut(seconds: 30), rows: 3, columns: 4, minimumNodes: 4)).encoded
            == header + [0x85, 1, 0, 3, 4, 4, 0, 0, 0, 30])
        #expect(SessionReply.status(SessionStatus(state: .notChecking(.stopping), rows: 3, columns: 3, minimumNodes: 4)).encoded
            == header + [0x85, 2, 2, 3, 3, 4, 0, 0, 0, 0])
    }

    @Test("every request on every grid shape reads back as itself", arguments: GridShape.allowedDimensions)
    func requestRoundTrip(rows: Int) throws {
        var numbers = SeededNumbers(state: UInt64(rows))
        for columns in GridShape.allowedDimensions {
            let nodeCount = rows * columns
            #expect(try SessionRequest(decoding: SessionRequest.status.encoded, nodeCount: nodeCount) == .status)
            for _ in 0..<200 {
                let request = SessionRequest.check(nodes: numbers.stroke(nodeCount: nodeCount))
                #expect(request.encoded.count <= SessionProtocol.maximumLength)
                #expect(try SessionRequest(decoding: request.encoded, nodeCount: nodeCount) == request)
            }
        }
        let everyNode = SessionRequest.check(nodes: Array((0..<64).reversed()))
        #expect(everyNode.encoded.count == SessionProtocol.maximumLength)
        #expect(try SessionRequest(decoding: everyNode.encoded, nodeCount: 64) == everyNode)
    }

    @Test("every reply reads back as itself")
    func replyRoundTrip() throws {
        var numbers = SeededNumbers(state: 7)
        var replies: [SessionReply] = [.accepted, .rejected(failures: 0, remainingBeforeLockout: nil),
                                       .lockedOut(seconds: 0), .lockedOut(seconds: SessionProtocol.saturated)]
        replies += NotCheckedReason.allCases.map { .notChecked($0) }
        for _ in 0..<500 {
            let count = numbers.next(0...Int(Int32.max))
            replies.append(.rejected(failures: count, remainingBeforeLockout: numbers.next(0...1) == 0 ? nil : numbers.next(0...200)))
            replies.append(.lockedOut(seconds: count))
            let rows = numbers.next(GridShape.allowedDimensions), columns = numbers.next(GridShape.allowedDimensions)
            let states: [SessionStatus.State] = [.ready, .lockedOut(seconds: count), .notChecking(NotCheckedReason.allCases[numbers.next(0...7)])]
            for state in states {
                replies.append(.status(SessionStatus(state: state, rows: rows, columns: columns, minimumNodes: numbers.next(1...(rows * columns)))))
            }
        }
        for reply in replies {
            #expect(reply.encoded.count <= SessionProtocol.maximumLength)
            #expect(try SessionReply(decoding: reply.encoded) == reply)
        }
    }

    @Test("counts beyond the wire's 32 bits saturate instead of wrapping")
    func saturation() throws {
        #expect(try SessionReply(decoding: SessionReply.lockedOut(seconds: Int.max).encoded) == .lockedOut(seconds: SessionProtocol.saturated))
        #expect(try SessionReply(decoding: SessionReply.rejected(failures: -1, remainingBeforeLockout: 1).encoded)
            == .rejected(failures: 0, remainingBeforeLockout: 1))
    }

    @Test("a message shorter than the header, or longer than the longest, is refused by its length")
    func lengths() {
        for length in 0..<SessionProtocol.headerLength {
            #expect(decodeError(Array((header + [0x02]).prefix(length))) == .truncatedHeader(length: length))
            #expect(replyError(Array((header + [0x81]).prefix(length))) == .truncatedHeader(length: length))
        }
        let oversized = header + [0x01, 65] + Array(repeating: 1, count: 65)
        #expect(decodeError(oversized, nodeCount: 64) == .tooLong(length: 70))
        #expect(replyError(header + [0x81] + Array(repeating: 0, count: 66)) == .tooLong(length: 70))
    }

    @Test("every wrong magic, every other version and every unknown type is its own error")
    func headerFields() {
        for first in 0...255 {
            for second in [0x4C, 0x00, 0x47] where !(first == 0x47 && second == 0x4C) {
                #expect(decodeError([UInt8(first), UInt8(second), 1, 0x02]) == .wrongMagic)
                #expect(replyError([UInt8(first), UInt8(second), 1, 0x81]) == .wrongMagic)
            }
        }
        for version in 0...255 where !SessionProtocol.versions.contains(UInt8(version)) {
            #expect(decodeError([0x47, 0x4C, UInt8(version), 0x02]) == .unsupportedVersion(UInt8(version)))
            #expect(replyError([0x47, 0x4C, UInt8(version), 0x81]) == .unsupportedVersion(UInt8(version)))
        }
        for type in 0...255 {
            if !(0x01...0x09).contains(type) { #expect(decodeError(header + [UInt8(type)]) == .unknownType(UInt8(type))) }
            if !(0x81...0x8A).contains(type) { #expect(replyError(header + [UInt8(type)]) == .unknownType(UInt8(type))) }
        }
    }

    @Test("a request or reply of any other length than its type's is refused")
    func wrongLengths() {
        for extra in 1...(SessionProtocol.maximumLength - 4) {
            #expect(decodeError(header + [0x02] + Array(repeating: 0, count: extra)) == .wrongLength(type: 0x02, expected: 4, actual: 4 + extra))
        }
        #expect(decodeError(header + [0x01]) == .wrongLength(type: 0x01, expected: 5, actual: 4))
        for count in 1...9 {
            for given in 0...SessionProtocol.maximumNodes where given != count {
                let bytes = header + [0x01, UInt8(count)] + Array(repeating: 1, count: given)
                #expect(decodeError(bytes) == .wrongLength(type: 0x01, expected: 5 + count, actual: 5 + given))
            }
        }
        let fixed: [UInt8: Int] = [0x81: 0, 0x82: 8, 0x83: 4, 0x84: 1, 0x85: 9, 0x86: 0, 0x87: 1, 0x88: 9]
        for (type, body) in fixed {
            for given in 0...(SessionProtocol.maximumLength - 4) where given != body {
                #expect(replyError(header + [type] + Array(repeating: 0, count: given))
                    == .wrongLength(type: type, expected: 4 + body, actual: 4 + given))
            }
        }
    }

    @Test("a check with no nodes, more nodes than the grid, an off-grid node or a repeated node is refused")
    func badNodes() {
        #expect(decodeError(header + [0x01, 0]) == .noNodes)
        for count in 10...255 {
            #expect(decodeError(header + [0x01, UInt8(count)] + Array(1...9).map(UInt8.init)) == .tooManyNodes(count: count, most: 9))
        }
        #expect(decodeError(header + [0x01, 65] + Array(repeating: 1, count: 64), nodeCount: 64) == .tooManyNodes(count: 65, most: 64))
        for node in 0...255 where !(1...9).contains(node) {
            #expect(decodeError(header + [0x01, 2, 1, UInt8(node)]) == .nodeOutOfRange(node, nodeCount: 9))
        }
        for node in 1...9 {
            #expect(decodeError(header + [0x01, 3, UInt8(node), UInt8(node % 9 + 1), UInt8(node)]) == .repeatedNode(node))
        }
    }

    @Test("a reply with an unknown reason, state, grid or minimum is refused")
    func badReplyFields() {
        for reason in 0...255 where NotCheckedReason(rawValue: UInt8(reason)) == nil {
            #expect(replyError(header + [0x84, UInt8(reason)]) == .unknownReason(UInt8(reason)))
            #expect(replyError(header + [0x85, 2, UInt8(reason), 3, 3, 4, 0, 0, 0, 0]) == .unknownReason(UInt8(reason)))
        }
        for state in 4...255 {
            #expect(replyError(header + [0x85, UInt8(state), 0, 3, 3, 4, 0, 0, 0, 0]) == .unknownState(UInt8(state)))
        }
        #expect(replyError(header + [0x85, 0, 1, 3, 3, 4, 0, 0, 0, 0]) == .nonZeroUnused)
        #expect(replyError(header + [0x85, 1, 1, 3, 3, 4, 0, 0, 0, 5]) == .nonZeroUnused)
        #expect(replyError(header + [0x85, 0, 0, 3, 3, 4, 0, 0, 0, 5]) == .nonZeroUnused)
        #expect(replyError(header + [0x85, 2, 1, 3, 3, 4, 0, 0, 1, 0]) == .nonZeroUnused)
        for dimension in [0, 1, 9, 255] {
            #expect(replyError(header + [0x85, 0, 0, UInt8(dimension), 3, 1, 0, 0, 0, 0]) == .gridOutOfRange(rows: dimension, columns: 3))
            #expect(replyError(header + [0x85, 0, 0, 3, UInt8(dimension), 1, 0, 0, 0, 0]) == .gridOutOfRange(rows: 3, columns: dimension))
        }
        #expect(replyError(header + [0x85, 0, 0, 3, 3, 0, 0, 0, 0, 0]) == .minimumOutOfRange(0))
        #expect(replyError(header + [0x85, 0, 0, 3, 3, 10, 0, 0, 0, 0]) == .minimumOutOfRange(10))
    }
}
