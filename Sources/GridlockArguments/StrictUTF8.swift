/// Well-formed UTF-8 (Unicode's table 3-7), judged on bytes before anything decodes them:
/// Swift hands a program its arguments and `readLine` its input as String already, with each
/// ill-formed sequence replaced by U+FFFD, so `--exec $'/bin/echo caf\xe9'` would be stored
/// as `café` with a replacement character, a command nobody typed. Refused: a byte that
/// starts no sequence (0x80-0xBF alone, 0xC0, 0xC1, 0xF5-0xFF), an overlong form, an encoded
/// surrogate (U+D800-DFFF), a code point above U+10FFFF, and a sequence cut short.
public enum StrictUTF8 {
    /// Where `bytes` stop being UTF-8: the offset of the first byte of the first ill-formed
    /// sequence, and that byte; nil when they are well-formed.
    public static func firstProblem(in bytes: some Collection<UInt8>) -> (offset: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        let start = Array(bytes)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return (offset, start[offset])
            }
        }
    }

    /// The text, or nil when `bytes` are not well-formed UTF-8.
    public static func decode(_ bytes: [UInt8]) -> String? {
        firstProblem(in: bytes) == nil ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// `byte 10 (0xE9)`: where the problem is, for a message that must not echo the value.
    public static func describe(_ problem: (offset: Int, byte: UInt8)) -> String {
        let hex = String(problem.byte, radix: 16, uppercase: true)
        return "byte \(problem.offset + 1) (0x\(hex.count == 1 ? "0" : "")\(hex))"
    }
}
