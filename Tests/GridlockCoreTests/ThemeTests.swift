import GridlockCore
import Testing

@Suite struct ThemeTests {
    @Test func theNumberReplacesTheFirstPercentD() {
        var theme = Theme()
        theme.lockedOut = "%d s (%d)"
        #expect(theme.text(for: .lockedOut(seconds: 30)) == "30 s (%d)")
        theme.tooShort = "ends in %"
        #expect(theme.text(for: .tooShort(minimum: 4)) == "ends in %")
    }

    /// Found by the message-template fuzz target (Tests/Fixtures/fuzz-regressions/message-template):
    /// the config check accepted `%d` followed by a combining mark (U+06D6), but the fill-in
    /// worked on characters, where `d` and the mark are one, and showed `%d` with no number.
    @Test func aCombiningMarkAfterPercentDDoesNotHideIt() {
        var theme = Theme()
        theme.tooShort = "\u{1}\u{1}\u{1}%d\u{6D6}"
        #expect(theme.text(for: .tooShort(minimum: 1000)) == "\u{1}\u{1}\u{1}1000\u{6D6}")
        theme.lockedOut = "wait %d\u{301} s"
        #expect(theme.text(for: .lockedOut(seconds: 7)) == "wait 7\u{301} s")
    }
}
