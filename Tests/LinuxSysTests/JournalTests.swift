import LinuxSys
import Testing

@Suite struct JournalTests {
    @Test func lineCarriesThePriorityPrefix() {
        #expect(Journal.line(.error, "open /dev/dri/card0 failed") == Array("<3>open /dev/dri/card0 failed\n".utf8))
        #expect(Journal.line(.debug, "x") == Array("<7>x\n".utf8))
        #expect(Journal.line(.emergency, "x") == Array("<0>x\n".utf8))
    }

    @Test func embeddedNewlinesStayOnOneLine() {
        let line = Journal.line(.warning, "config error\nat line 3\r\n")
        #expect(line == Array("<4>config error\\nat line 3\\r\\n\n".utf8))
        #expect(line.filter { $0 == 10 }.count == 1)
    }

    @Test func prioritiesMatchSyslog() {
        #expect(LogPriority.allCases.map(\.rawValue) == Array(0...7))
        #expect(LogPriority.info.rawValue == 6)
    }
}
