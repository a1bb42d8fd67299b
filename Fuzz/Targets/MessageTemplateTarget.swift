import GridlockCore
import GridlockDaemon

extension FuzzTargets {
    /// A message value (`too-short=`, `prompt=`): the config check counts `%d` as the renderer
    /// will see it, refuses only what breaks a rule (a second `%d`, `%d` where no number goes,
    /// a `{name}` the message lacks), and a template it accepts shows the number exactly
    /// where the `%d` was (the renderer's `Theme.text(for:)` fills it in).
    static let messageTemplate = FuzzTarget(
        name: "message-template",
        summary: "the check of message values against the renderer's fill-in: an accepted template shows its number",
        maximumLength: 1024,
        run: { bytes throws(FuzzFinding) in
            guard let first = bytes.first else { return }
            let values: MessageValues = first & 1 == 1 ? .tooShort : .none
            let allowedPercentD = values.percentD == nil ? 0 : 1
            let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
            let utf8 = Array(text.utf8)
            let percentD = utf8.indices.dropLast().filter { utf8[$0] == UInt8(ascii: "%") && utf8[$0 + 1] == UInt8(ascii: "d") }
            let hasBraces = utf8.contains(UInt8(ascii: "{")) || utf8.contains(UInt8(ascii: "}"))
            let accepted = FuzzSeams.messageTemplate(text, values: values)
            if accepted == nil {
                try require(percentD.count > allowedPercentD || hasBraces, "refused \(quoted(utf8)) with \(percentD.count) %d and no braces")
                return
            }
            try require(percentD.count <= allowedPercentD, "accepted \(quoted(utf8)) with \(percentD.count) %d")
            guard let accepted, !hasBraces else { return }
            try require(accepted == text, "the accepted value changed: \(quoted(utf8))")
            let number = 1000 + Int(first >> 1)
            var theme = Theme()
            theme.tooShort = accepted
            let shown = Array(theme.text(for: .tooShort(minimum: number)).utf8)
            let expected = percentD.first.map { at in Array(utf8[..<at]) + Array(String(number).utf8) + Array(utf8[(at + 2)...]) } ?? utf8
            try require(shown == expected, "\(quoted(utf8)) is shown as \(quoted(shown)), not \(quoted(expected))")
        },
        seeds: { _ in
            [
                ("too-short", 1, "Connect at least %d dots"), ("locked-out", 1, "Too many attempts. Try again in %d s"),
                ("prompt", 0, "Draw your unlock pattern"), ("percent-percent", 1, "100%% sure: %d"),
                ("two", 1, "%d and %d"), ("none", 1, "no number"), ("utf8", 1, "Bitte %d Punkte verbinden – ✓"),
                ("named", 1, "Connect {minimum} dots"), ("unknown-name", 1, "{seconds} s"), ("braces", 0, "{{literal}} { }"),
            ].map { name, placeholders, text in FuzzSeed(name, [UInt8(placeholders)] + Array(text.utf8)) }
        })
}
