import GridlockInput

extension FuzzTargets {
    /// `EvemuRecording(parsing:)`, which reads fixtures, `gridlock replay` recordings and
    /// `[touch] backend=replay` files: a recording it accepts is written back by `EvemuWriter`
    /// and must read back as the same recording (`gridlock record` relies on that round trip).
    static let evemu = FuzzTarget(
        name: "evemu",
        summary: "the evemu recording parser; an accepted recording is written by `EvemuWriter` and reads back the same",
        maximumLength: 4096,
        run: { bytes throws(FuzzFinding) in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let recording = try? EvemuRecording(parsing: text, file: "fuzz.evemu") else { return }
            let written: String
            do {
                written = try EvemuWriter.text(recording)
            } catch {
                // The writer refuses only what no kernel reports: a name with a line break or a
                // leading blank, an event before time zero. The parser must not produce those.
                throw FuzzFinding("a parsed recording cannot be written (\(error)): \(quoted(bytes))")
            }
            let again: EvemuRecording
            do {
                again = try EvemuRecording(parsing: written, file: "written.evemu")
            } catch {
                throw FuzzFinding("the written recording does not parse (\(error)); input \(quoted(bytes))")
            }
            try require(again == recording, "the written recording reads back differently; input \(quoted(bytes))")
        },
        seeds: { fixtures in
            // Whole recordings are longer than the input limit: their first lines, cut at a line
            // end, carry the description and the first strokes.
            (FixtureFiles.seeds(fixtures, "", suffix: ".evemu") + FixtureFiles.seeds(fixtures, "devices", suffix: ".evemu"))
                .map { seed in
                    guard seed.bytes.count > 4096 else { return seed }
                    let end = seed.bytes[..<4096].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                    return FuzzSeed(seed.name, Array(seed.bytes[..<end]))
                }
        })
}
