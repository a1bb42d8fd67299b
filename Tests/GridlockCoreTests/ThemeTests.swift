import GridlockCore
import Testing

@Suite struct ThemeTests {
    @Test("the number replaces the first percent d") func theNumberReplacesTheFirstPercentD() {
        var theme = Theme()
        theme.lockedOut = "%d s (%d)"
        #expect(theme.text(for: .lockedOut(seconds: 30)) == "30 s (%d)")
        theme.tooShort = "ends in %"
        #expect(theme.text(for: .tooShort(minimum: 4)) == "ends in %")
    }

    /// Found by the message-template fuzz target (Tests/Fixtures/fuzz-regressions/message-template):
    /// the config check accepted `%d` followed by a combining mark (U+06D6), but the fill-in
    /// worked on characters, where `d` and the mark are one, and showed `%d` with no number.
    @Test("a combining mark after percent d does not hide it") func aCombiningMarkAfterPercentDDoesNotHideIt() {
        var theme = Theme()
        theme.tooShort = "\u{1}\u{1}\u{1}%d\u{6D6}"
        #expect(theme.text(for: .tooShort(minimum: 1000)) == "\u{1}\u{1}\u{1}1000\u{6D6}")
        theme.lockedOut = "wait %d\u{301} s"
        #expect(theme.text(for: .lockedOut(seconds: 7)) == "wait 7\u{301} s")
    }

    @Test("named values are filled in wherever they stand") func namedValuesAreFilledInWhereverTheyStand() {
        var theme = Theme()
        theme.wrong = "Wrong ({failures}), {remaining} left; {failures} in a row"
        #expect(theme.text(for: .wrong(failures: 2, remaining: 3)) == "Wrong (2), 3 left; 2 in a row")
        #expect(theme.text(for: .wrong(failures: 7, remaining: nil)) == "Wrong (7), ∞ left; 7 in a row")
        theme.lockedOut = "{seconds}"
        #expect(theme.text(for: .lockedOut(seconds: 12)) == "12")
        theme.calibrate = "{step}/{count}"
        #expect(theme.text(for: .calibrate(step: 2, count: 5)) == "2/5")
    }

    @Test("todays percent d keeps its meaning next to names") func todaysPercentDKeepsItsMeaningNextToNames() {
        var theme = Theme()
        theme.tooShort = "%d or {minimum}"
        #expect(theme.text(for: .tooShort(minimum: 4)) == "4 or 4")
        theme.calibrate = "(%d of {count})"
        #expect(theme.text(for: .calibrate(step: 3, count: 5)) == "(3 of 5)")
        // In a message that never had a number, %d is plain text.
        theme.prompt = "100%d"
        #expect(theme.text(for: .prompt) == "100%d")
    }

    @Test("doubled braces are literal and stray braces stay") func doubledBracesAreLiteralAndStrayBracesStay() {
        var theme = Theme()
        theme.lockedOut = "{{seconds}} {seconds} { } {unclosed"
        #expect(theme.text(for: .lockedOut(seconds: 9)) == "{seconds} 9 { } {unclosed")
        theme.prompt = "{{draw}}"
        #expect(theme.text(for: .prompt) == "{draw}")
    }

    @Test("the check refuses unknown names and misplaced percent d") func theCheckRefusesUnknownNamesAndMisplacedPercentD() {
        #expect(throws: MessageTemplateProblem.unknownName("minutes", known: ["seconds"])) {
            try MessageTemplate.check("{minutes}", accepts: .lockedOut)
        }
        #expect(throws: MessageTemplateProblem.unknownName("seconds", known: [])) {
            try MessageTemplate.check("{seconds}", accepts: .none)
        }
        #expect(throws: MessageTemplateProblem.percentDNotAllowed) { try MessageTemplate.check("%d", accepts: .wrong) }
        #expect(throws: MessageTemplateProblem.repeatedPercentD(count: 2)) {
            try MessageTemplate.check("%d %d", accepts: .tooShort)
        }
        #expect(throws: Never.self) { try MessageTemplate.check("{{seconds}} and {seconds} twice: {seconds}", accepts: .lockedOut) }
        #expect(throws: Never.self) { try MessageTemplate.check("no value at all", accepts: .wrong) }
    }
}
