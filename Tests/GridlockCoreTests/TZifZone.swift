import Foundation
@testable import GridlockCore

/// A zone read from the system's zone data (`/usr/share/zoneinfo/NAME`, RFC 8536 TZif),
/// so the daylight-saving rules are tested on the real transitions of real zones without
/// touching the process's TZ. Instants after the file's last transition follow its footer
/// (a POSIX TZ rule such as `CET-1CEST,M3.5.0,M10.5.0/3`).
struct TZifZone: TimeZoneRules {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    let name: String
    /// Ascending.
    let transitions: [Int64]
    /// The offset from each transition on.
    let offsets: [Int]
    /// Before the first transition.
    let initialOffset: Int
    let footer: PosixRule?

    init(_ name: String, directory: String = "/usr/share/zoneinfo") throws {
        guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)") else {
            throw Unreadable(description: "cannot read \(directory)/\(name)")
        }
        var reader = ByteReader(bytes: [UInt8](data))
        var header = try reader.header()
        var timeSize = 4
        if header.version >= 2 {
            // The version 1 block (32-bit times) comes first; the 64-bit one follows it.
            try reader.skip(header.dataSize(timeSize: 4))
            header = try reader.header()
            timeSize = 8
        }
        var transitions: [Int64] = []
        for _ in 0..<header.timeCount { transitions.append(try reader.signed(timeSize)) }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount { typeIndices.append(Int(try reader.byte())) }
        var typeOffsets: [Int] = []
        for _ in 0..<header.typeCount {
            typeOffsets.append(Int(try reader.signed(4)))
            try reader.skip(2)  // isdst, abbreviation index
        }
        guard !typeOffsets.isEmpty, typeIndices.allSatisfy({ $0 < typeOffsets.count }) else {
            throw Unreadable(description: "\(name): no local time types, or a transition to one it lacks")
        }
        try reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount)
        self.name = name
        self.transitions = transitions
        offsets = typeIndices.map { typeOffsets[$0] }
        initialOffset = typeOffsets[0]
        footer = header.version >= 2 ? try reader.footer().flatMap { try PosixRule(text: $0) } : nil
    }

    func utcOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int {
        guard let first = transitions.first, epochSeconds >= first else { return initialOffset }
        if let last = transitions.last, epochSeconds >= last, let footer {
            return footer.offset(at: epochSeconds)
        }
        // The last transition at or before the instant.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= epochSeconds { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
    }
}

/// A POSIX TZ rule with `Mm.w.d` dates, the form every current zone's footer uses.
struct PosixRule {
    var standardOffset: Int
    /// Nil: no daylight saving.
    var daylight: (offset: Int, start: DateRule, end: DateRule)?

    struct DateRule {
        var month: Int
        /// 1 to 4, or 5 for the last.
        var week: Int
        /// 0 is Sunday.
        var weekday: Int
        /// Local time of day, in the offset in force before the change; may be negative or past 24 h.
        var seconds: Int

        /// The day number (days since 1970-01-01) of the rule's date in `year`.
        func dayNumber(in year: Int) -> Int64 {
            let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
            let firstWeekday = Int(CivilCalendar.floorModulo(first + 4, 7))  // 1970-01-01 was a Thursday (4)
            var day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            let length = CivilCalendar.dayNumber(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1) - first
            while day > length { day -= 7 }
            return first + Int64(day - 1)
        }
    }

    init?(text: String) throws {
        var scanner = Substring(text)
        guard !scanner.isEmpty else { return nil }
        try Self.name(&scanner)
        standardOffset = -(try Self.time(&scanner))  // POSIX counts west of UTC
        guard !scanner.isEmpty else { return }
        try Self.name(&scanner)
        var daylightOffset = standardOffset + 3600
        if let next = scanner.first, next != "," { daylightOffset = -(try Self.time(&scanner)) }
        guard scanner.popFirst() == "," else { throw TZifZone.Unreadable(description: "TZ rule \(text): no dates") }
        let start = try Self.date(&scanner)
        guard scanner.popFirst() == "," else { throw TZifZone.Unreadable(description: "TZ rule \(text): one date") }
        let end = try Self.date(&scanner)
        daylight = (daylightOffset, start, end)
    }

    func offset(at epochSeconds: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilCalendar.date(dayNumber: CivilCalendar.floorDivision(epochSeconds, 86_400)).year
        // Each year's two changes, in UTC, with the offset each brings; the last one at or before the instant wins.
        var changes: [(at: Int64, offset: Int)] = []
        for y in (year - 1)...(year + 1) {
            changes.append((daylight.start.dayNumber(in: y) * 86_400 + Int64(daylight.start.seconds - standardOffset), daylight.offset))
            changes.append((daylight.end.dayNumber(in: y) * 86_400 + Int64(daylight.end.seconds - daylight.offset), standardOffset))
        }
        return changes.sorted { $0.at < $1.at }.last { $0.at <= epochSeconds }?.offset ?? standardOffset
    }

    private static func name(_ text: inout Substring) throws {
        if text.first == "<" {
            guard let close = text.firstIndex(of: ">") else { throw TZifZone.Unreadable(description: "unclosed <name>") }
            text = text[text.index(after: close)...]
        } else {
            let letters = text.prefix { $0.isLetter }
            guard letters.count >= 3 else { throw TZifZone.Unreadable(description: "zone name in \(text)") }
            text = text.dropFirst(letters.count)
        }
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    private static func time(_ text: inout Substring) throws -> Int {
        var sign = 1
        if text.first == "+" || text.first == "-" { sign = text.removeFirst() == "-" ? -1 : 1 }
        var seconds = 0
        for (index, unit) in [3600, 60, 1].enumerated() {
            if index > 0 { guard text.first == ":" else { break }; text.removeFirst() }
            let digits = text.prefix { $0.isNumber }
            guard let value = Int(digits) else { throw TZifZone.Unreadable(description: "time in \(text)") }
            seconds += value * unit
            text = text.dropFirst(digits.count)
        }
        return sign * seconds
    }

    private static func date(_ text: inout Substring) throws -> DateRule {
        guard text.popFirst() == "M" else { throw TZifZone.Unreadable(description: "only Mm.w.d dates: \(text)") }
        var fields: [Int] = []
        for index in 0..<3 {
            if index > 0 { guard text.popFirst() == "." else { throw TZifZone.Unreadable(description: "date in \(text)") } }
            let digits = text.prefix { $0.isNumber }
            guard let value = Int(digits) else { throw TZifZone.Unreadable(description: "date in \(text)") }
            fields.append(value)
            text = text.dropFirst(digits.count)
        }
        var seconds = 7200
        if text.first == "/" {
            text.removeFirst()
            seconds = try time(&text)
        }
        return DateRule(month: fields[0], week: fields[1], weekday: fields[2], seconds: seconds)
    }
}

private struct ByteReader {
    struct Header {
        var version: Int
        var utcCount, standardCount, leapCount, timeCount, typeCount, charCount: Int

        func dataSize(timeSize: Int) -> Int {
            timeCount * (timeSize + 1) + typeCount * 6 + charCount + leapCount * (timeSize + 4) + standardCount + utcCount
        }
    }

    let bytes: [UInt8]
    var position = 0

    mutating func header() throws -> Header {
        guard try take(4) == Array("TZif".utf8) else { throw TZifZone.Unreadable(description: "not a TZif file") }
        let versionByte = try byte()
        try skip(15)
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try signed(4))) }
        return Header(
            version: versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0")),
            utcCount: counts[0], standardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    /// The text between the newlines after the 64-bit block; nil when empty.
    mutating func footer() throws -> String? {
        guard try byte() == UInt8(ascii: "\n"), let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw TZifZone.Unreadable(description: "no footer")
        }
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        position = end + 1
        return text.isEmpty ? nil : text
    }

    mutating func byte() throws -> UInt8 { try take(1)[0] }

    /// Big-endian, two's complement.
    mutating func signed(_ size: Int) throws -> Int64 {
        let raw = try take(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    mutating func skip(_ count: Int) throws { _ = try take(count) }

    private mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, bytes.count - position >= count else { throw TZifZone.Unreadable(description: "truncated") }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }
}
