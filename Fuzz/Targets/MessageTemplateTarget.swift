import GridlockCore
import GridlockDaemon

extension FuzzTargets {
    /// A message value with `%d` (`too-short=`, `locked-out=`): the config check counts `%d`
    /// as the renderer will see it, and a template it accepts shows the number exactly where
    /// the `%d` was (the renderer's `Theme.text(for:)` fills it in).
    static let messageTemplate = FuzzTarget(
        name: "message-template",
        summary: "the `%d` check of message values against the renderer's fill-in: an accepted template shows its number",
        maximumLength: 1024,
        run: { bytes throws(FuzzFinding) in
            guard let first = bytes.first else { return }
            let placeholders = Int(first & 1)
            let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
            let utf8 = Array(text.utf8)
            let percentD = utf8.indices.dropLast().filter { utf8[$0] == UInt8(ascii: "%") && utf8[$0 + 1] == UInt8(ascii: "d") }
            let accepted = FuzzSeams.messageTemplate(text, placeholders: placeholders)
            try require(
                (accepted != nil) == (percentD.count == placeholders),
                "\(accepted == nil ? "refused" : "accepted") \(quoted(utf8)) with \(percentD.count) %d for \(placeholders)")
            guard let accepted, let at = percentD.first else { return }
            try require(accepted == text, "the accepted value changed: \(quoted(utf8))")
            let number = 1000 + Int(first >> 1)
            var theme = Theme()
            theme.tooShort = accepted
            let shown = Array(theme.text(for: .tooShort(minimum: number)).utf8)
            let expected = Array(utf8[..<at]) + Array(String(number).utf8) + Array(utf8[(at + 2)...])
            try require(shown == expected, "\(quoted(utf8)) is shown as \(quoted(shown)), not \(quoted(expected))")
        },
        seeds: { _ in
            [
                ("too-short", 1, "Connect at least %d dots"), ("locked-out", 1, "Too many attempts. Try again in %d s"),
                ("prompt", 0, "Draw your unlock pattern"), ("percent-percent", 1, "100%% sure: %d"),
                ("two", 1, "%d and %d"), ("none", 1, "no number"), ("utf8", 1, "Bitte %d Punkte verbinden – ✓"),
            ].map { name, placeholders, text in FuzzSeed(name, [UInt8(placeholders)] + Array(text.utf8)) }
        })
}
