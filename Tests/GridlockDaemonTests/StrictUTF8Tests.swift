import GridlockArguments
import GridlockDaemon
import Testing

/// Arguments that become config are taken as the bytes given: ill-formed UTF-8 is refused
/// with 64, naming the option, and never read with U+FFFD in place of its bytes.
@Suite struct StrictUTF8Tests {
    /// Each ill-formed form, with the offset of its first bad byte.
    static let illFormed: [(name: String, bytes: [UInt8], offset: Int)] = [
        ("a Latin-1 é (a lead byte with no continuation)", Array("/bin/echo caf".utf8) + [0xE9], 13),
        ("0xFF, which starts nothing", Array("/bin/echo ".utf8) + [0xFF], 10),
        ("0xFE", [0x61, 0xFE, 0x62], 1),
        ("an overlong '/' in two bytes", [0x2F, 0xC0, 0xAF], 1),
        ("an overlong NUL in two bytes", [0x61, 0xC0, 0x80], 1),
        ("0xC1, the other overlong lead", [0xC1, 0xBF], 0),
        ("an overlong '/' in three bytes", [0x61, 0xE0, 0x80, 0xAF], 1),
        ("an overlong '/' in four bytes", [0xF0, 0x80, 0x80, 0xAF], 0),
        ("an encoded high surrogate U+D800", [0x61, 0xED, 0xA0, 0x80], 1),
        ("an encoded low surrogate U+DFFF", [0xED, 0xBF, 0xBF], 0),
        ("a surrogate pair in CESU-8", [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], 0),
        ("a lone continuation byte 0x80", [0x61, 0x80, 0x62], 1),
        ("a lone continuation byte 0xBF", [0xBF], 0),
        ("a euro sign cut short", [0x61, 0xE2, 0x82], 1),
        ("an emoji cut short", [0xF0, 0x9F, 0x98], 0),
        ("a code point above U+10FFFF", [0xF4, 0x90, 0x80, 0x80], 0),
        ("0xF5, a lead past U+10FFFF", [0x61, 0x62, 0xF5, 0x80, 0x80, 0x80], 2),
    ]

    @Test("each ill-formed UTF-8 form is found at its first bad byte: a Latin-1 byte, 0xFF, overlong forms, surrogates, lone continuation bytes, cut sequences")
    func eachIllFormedFormIsFound() {
        for form in Self.illFormed {
            let problem = StrictUTF8.firstProblem(in: form.bytes)
            #expect(problem?.offset == form.offset, "\(form.name)")
            #expect(problem?.byte == form.bytes[form.offset], "\(form.name)")
            #expect(StrictUTF8.decode(form.bytes) == nil, "\(form.name)")
        }
        #expect(StrictUTF8.describe((offset: 13, byte: 0xE9)) == "byte 14 (0xE9)")
        #expect(StrictUTF8.describe((offset: 0, byte: 0x8)) == "byte 1 (0x08)")
    }

    @Test("well-formed UTF-8 passes, up to the last code point and on both sides of the surrogates")
    func wellFormedUTF8Passes() {
        for bytes: [UInt8] in [
            [], Array("/bin/echo café".utf8), Array("€ 😀 門".utf8), [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
        ] {
            #expect(StrictUTF8.firstProblem(in: bytes) == nil, "\(bytes)")
            #expect(StrictUTF8.decode(bytes) == String(decoding: bytes, as: UTF8.self))
        }
    }

    private func arguments(_ words: [UInt8]...) -> Arguments { Arguments(bytes: words, command: "gridlock enroll") }

    @Test("--exec with each ill-formed form is a usage error naming --exec and the byte, not a value with U+FFFD")
    func execWithIllFormedUTF8IsRefused() {
        for form in Self.illFormed {
            var words = arguments(Array("--exec".utf8), form.bytes)
            let byte = StrictUTF8.describe((offset: form.offset, byte: form.bytes[form.offset]))
            #expect(throws: UsageError("--exec: is not valid UTF-8 (at \(byte) of the argument); give it as UTF-8 text", command: "gridlock enroll"), "\(form.name)") {
                _ = try words.patternValue("--exec", key: "exec")
            }
            // Written as one argument, the offset counts the option's name too.
            var joined = arguments(Array("--exec=".utf8) + form.bytes)
            #expect(throws: UsageError.self, "\(form.name)") { _ = try joined.patternValue("--exec", key: "exec") }
        }
    }

    @Test("--name, --valid, --valid-from, --valid-until, --config and a positional are refused alike when not UTF-8")
    func everyOptionRefusesIllFormedUTF8() throws {
        let latin1: [UInt8] = Array("2027-01-01caf".utf8) + [0xE9]
        for option in ["--valid", "--valid-from", "--valid-until"] {
            var words = arguments(Array(option.utf8), latin1)
            #expect(throws: UsageError("\(option): is not valid UTF-8 (at byte 14 (0xE9) of the argument); give it as UTF-8 text", command: "gridlock enroll")) {
                _ = try words.patternLimits()
            }
        }
        for option in ["--name", "--config"] {
            var words = arguments(Array(option.utf8), [0x78, 0xFF])
            #expect(throws: UsageError("\(option): is not valid UTF-8 (at byte 2 (0xFF) of the argument); give it as UTF-8 text", command: "gridlock enroll")) {
                _ = try words.option(option)
            }
        }
        var positional = arguments([0x61, 0xC0, 0xAF])
        #expect(throws: UsageError("RECORDING is not valid UTF-8 (at byte 2 (0xC0)); give it as UTF-8 text", command: "gridlock enroll")) {
            _ = try positional.positionals(count: 1...1, names: "RECORDING")
        }
        // The same options well-formed are taken as given.
        var good = arguments(Array("--exec".utf8), Array("/bin/echo café".utf8), Array("--name".utf8), Array("door".utf8))
        #expect(try good.patternValue("--exec", key: "exec") == "/bin/echo café")
        #expect(try good.option("--name") == "door")
    }
}
