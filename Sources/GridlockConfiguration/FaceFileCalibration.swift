/// `gridlock calibrate` storing its fit in the face's file (`[touch] calibration=`), which,
/// unlike gridlockd's configuration, has no drop-in folder: the one line is set in place and
/// every other line, comment and order is kept.
public enum FaceFileCalibration {
    /// `text` with `calibration=value` in its `[touch]` section: the first such key there
    /// replaced, any later one commented out (inih would read the last), or the key added
    /// under the first `[touch]` header, or a `[touch]` section appended.
    public static func setting(_ value: String, in text: String) -> String {
        var lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        let line = "calibration=\(value)"
        var section: String?
        var firstHeader: Int?
        var replaced = false
        for index in lines.indices {
            let trimmed = lines[index].trimmingWhitespace
            if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
                section = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close]).trimmingWhitespace
                if section == "touch", firstHeader == nil { firstHeader = index }
                continue
            }
            guard section == "touch", key(of: trimmed) == "calibration" else { continue }
            if replaced {
                lines[index] = "# \(lines[index])  (set above by gridlock calibrate)"
            } else {
                lines[index] = line
                replaced = true
            }
        }
        if !replaced {
            if let header = firstHeader {
                lines.insert(line, at: header + 1)
            } else {
                if let last = lines.last, !last.trimmingWhitespace.isEmpty { lines.append("") }
                lines += ["[touch]", line]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The key of a `key=value` line, nil for a comment or anything else.
    private static func key(of line: String) -> String? {
        guard !line.hasPrefix("#"), !line.hasPrefix(";"), let equals = line.firstIndex(of: "=") else { return nil }
        return String(line[..<equals]).trimmingWhitespace
    }
}

extension StringProtocol {
    /// Without the whitespace inih strips from a line's ends (`ConfigWhitespace`).
    fileprivate var trimmingWhitespace: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, ConfigWhitespace.isStrippedByReader(first) { scalars.removeFirst() }
        while let last = scalars.last, ConfigWhitespace.isStrippedByReader(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
