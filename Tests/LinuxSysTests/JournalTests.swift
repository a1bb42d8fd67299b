import Glibc
@testable import LinuxSys
import Testing

@Suite struct JournalTests {
    @Test("line carries the priority prefix") func lineCarriesThePriorityPrefix() {
        #expect(Journal.line(.error, "open /dev/dri/card0 failed") == Array("<3>open /dev/dri/card0 failed\n".utf8))
        #expect(Journal.line(.debug, "x") == Array("<7>x\n".utf8))
        #expect(Journal.line(.emergency, "x") == Array("<0>x\n".utf8))
    }

    @Test("embedded newlines stay on one line") func embeddedNewlinesStayOnOneLine() {
        let line = Journal.line(.warning, "config error\nat line 3\r\n")
        #expect(line == Array("<4>config error\\nat line 3\\r\\n\n".utf8))
        #expect(line.filter { $0 == 10 }.count == 1)
    }

    @Test("priorities match syslog") func prioritiesMatchSyslog() {
        #expect(LogPriority.allCases.map(\.rawValue) == Array(0...7))
        #expect(LogPriority.info.rawValue == 6)
    }

    @Test("control characters are escaped: no forged entries, no terminal escapes; other text is kept")
    func controlCharactersAreEscaped() {
        #expect(Journal.escaped("a\nb\u{1b}[31mred\u{7f}\u{85}\t") == "a\\nb\\x1b[31mred\\x7f\\x85\\t")
        #expect(Journal.escaped("门锁 قفل ✓") == "门锁 قفل ✓")
        #expect(Journal.line(.error, "/etc/gridlock/gridlock.conf.d/x\n<0>forged.conf: bad")
            == Array("<3>/etc/gridlock/gridlock.conf.d/x\\n<0>forged.conf: bad\n".utf8))
    }

    @Test("JOURNAL_STREAM names stderr only when device and inode both match")
    func journalStreamDetection() {
        #expect(Journal.isJournalStream("8:1234", device: 8, inode: 1234))
        #expect(!Journal.isJournalStream("8:1234", device: 8, inode: 1235))
        #expect(!Journal.isJournalStream(nil, device: 8, inode: 1234))
        #expect(!Journal.isJournalStream("garbage", device: 8, inode: 1234))
    }

    @Test("a native-protocol entry: message, priority, identifier, MESSAGE_ID, then the fields by name")
    func nativeEntry() {
        let fields = JournalFields(messageID: "e09c69a37d814ceabb811644d02bec90",
                                   fields: ["GRIDLOCK_RESULT": "rejected", "GRIDLOCK_EVENT": "attempt\nX=1"])
        let items = Journal.entry(.warning, "attempt rejected", fields)
        #expect(items.first == "MESSAGE=attempt rejected")
        #expect(items[1] == "PRIORITY=4")
        #expect(items[2].hasPrefix("SYSLOG_IDENTIFIER="))
        #expect(Array(items.dropFirst(3)) == [
            "MESSAGE_ID=e09c69a37d814ceabb811644d02bec90",
            "GRIDLOCK_EVENT=attempt\\nX=1",
            "GRIDLOCK_RESULT=rejected",
        ])
    }

    @Test("an entry reaches a journal socket as one datagram of NAME=value lines")
    func nativeProtocolDatagram() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/journal"
        let journal = try NotifySocket(boundTo: path, abstract: false)
        let items = Journal.entry(.notice, "attempt accepted: pattern door (5 nodes)", JournalFields(
            messageID: "a024b98382034749a4b5b4e444334750", fields: ["GRIDLOCK_PATTERN": "door"]))
        try UnixDatagram.send(Journal.datagram(items), to: path)
        let received = try #require(journal.receive())
        let lines = received.split(separator: "\n").map(String.init)
        #expect(lines.first == "MESSAGE=attempt accepted: pattern door (5 nodes)")
        #expect(lines.contains("PRIORITY=5"))
        #expect(lines.contains("MESSAGE_ID=a024b98382034749a4b5b4e444334750"))
        #expect(lines.contains("GRIDLOCK_PATTERN=door"))
        #expect(received.hasSuffix("\n"))
    }
}
