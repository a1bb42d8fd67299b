import CHarfBuzz

/// A message shaped once, in ems, ready to be broken into lines at any size: split into
/// runs of one direction (fribidi's levels), one script and one font (the configured one,
/// or a fallback for characters it lacks), each shaped by HarfBuzz (joined Arabic, Thai and
/// Indic marks, ligatures).
struct ShapedParagraph {
    struct Glyph {
        var id: UInt32
        /// The index in `scalars` of the first character this glyph draws.
        var cluster: Int
        var advance: Double
        var dx: Double
        var dy: Double
    }

    struct Run {
        var range: Range<Int>
        var level: UInt8
        var font: Int
        /// In visual order (right to left runs come out of HarfBuzz reversed).
        var glyphs: [Glyph]
    }

    let scalars: [UInt32]
    let runs: [Run]
    /// The advance of each character cluster, at the index where the cluster starts.
    private let advances: [Double]
    /// Where clusters (the units a line may be broken between) start; `scalars.count` too.
    private let clusterStarts: [Bool]
    /// Characters no font could draw (shown as the configured font's missing-glyph box).
    let missingGlyphs: Int

    init(_ text: String, fonts: FontLibrary) {
        let scalars = text.unicodeScalars.map(\.value)
        self.scalars = scalars
        let count = scalars.count
        let levels = Self.bidiLevels(scalars)
        let unicode = hb_unicode_funcs_get_default()

        // Each character's font and script; marks, joiners and spaces keep their neighbour's.
        var fontOf = [Int](repeating: 0, count: count)
        var scriptOf = [hb_script_t](repeating: HB_SCRIPT_COMMON, count: count)
        for index in 0..<count {
            let scalar = scalars[index]
            let previous = index > 0 ? fontOf[index - 1] : nil
            if let previous, Self.attachesToPrevious(scalar, unicode) || (Self.isNeutral(scalar, unicode) && fonts.fonts[previous].covers(scalar)) {
                fontOf[index] = previous
            } else {
                fontOf[index] = fonts.font(for: scalar)
            }
            let script = hb_unicode_script(unicode, scalar)
            scriptOf[index] = script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
                ? (index > 0 ? scriptOf[index - 1] : HB_SCRIPT_COMMON) : script
        }
        // A leading run of neutral characters takes the script that follows it.
        if let first = scriptOf.firstIndex(where: { $0 != HB_SCRIPT_COMMON }) {
            for index in 0..<first { scriptOf[index] = scriptOf[first] }
        }

        var runs: [Run] = []
        var start = 0
        while start < count {
            var end = start + 1
            while end < count, levels[end] == levels[start], fontOf[end] == fontOf[start], scriptOf[end] == scriptOf[start] {
                end += 1
            }
            let font = fonts.fonts[fontOf[start]]
            runs.append(Run(
                range: start..<end, level: levels[start], font: fontOf[start],
                glyphs: Self.shape(scalars, start..<end, rightToLeft: levels[start] & 1 == 1, script: scriptOf[start], font: font)))
            start = end
        }

        var advances = [Double](repeating: 0, count: count)
        var clusterStarts = [Bool](repeating: false, count: count + 1)
        clusterStarts[count] = true
        var missing = 0
        for run in runs {
            clusterStarts[run.range.lowerBound] = true
            for glyph in run.glyphs {
                advances[glyph.cluster] += glyph.advance
                clusterStarts[glyph.cluster] = true
                if glyph.id == 0 { missing += 1 }
            }
        }
        self.runs = runs
        self.advances = advances
        self.clusterStarts = clusterStarts
        missingGlyphs = missing
    }

    /// The whole text on one line, in ems.
    var width: Double { advances.reduce(0, +) }

    /// The lines, as ranges of `scalars`, for lines at most `maxWidth` ems wide: broken
    /// after spaces and around Chinese and Japanese characters, and where a word alone is
    /// wider than a line, between any two clusters. Spaces at the ends are left out.
    func lines(maxWidth: Double) -> [Range<Int>] {
        let count = scalars.count
        var lines: [Range<Int>] = []
        var start = skipSpaces(from: 0)
        while start < count {
            var position = start, used = 0.0
            var lastBreak: Int?
            while position < count {
                let next = nextCluster(after: position)
                let clusterWidth = advances[position..<next].reduce(0, +)
                if used + clusterWidth > maxWidth, !Self.isSpace(scalars[position]), position > start { break }
                used += clusterWidth
                position = next
                if position == count || canBreak(before: position) { lastBreak = position }
            }
            let end = position == count ? count : (lastBreak ?? position)
            var trimmed = end
            while trimmed > start, Self.isSpace(scalars[trimmed - 1]) { trimmed -= 1 }
            lines.append(start..<trimmed)
            start = skipSpaces(from: end)
        }
        return lines
    }

    func width(of line: Range<Int>) -> Double { advances[line].reduce(0, +) }

    /// The line's pieces of runs, left to right on the screen (the Unicode reordering of
    /// levels, rule L2, applied to runs, each of one level).
    func pieces(of line: Range<Int>) -> [(run: Int, glyphs: [Glyph])] {
        var pieces: [(run: Int, level: UInt8)] = runs.indices.compactMap { index in
            runs[index].range.overlaps(line) ? (index, runs[index].level) : nil
        }
        if let highest = pieces.map(\.level).max(), let lowestOdd = pieces.map(\.level).filter({ $0 & 1 == 1 }).min() {
            for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
                var index = 0
                while index < pieces.count {
                    guard pieces[index].level >= level else { index += 1; continue }
                    var end = index
                    while end < pieces.count, pieces[end].level >= level { end += 1 }
                    pieces[index..<end].reverse()
                    index = end
                }
            }
        }
        return pieces.map { piece in (piece.run, runs[piece.run].glyphs.filter { line.contains($0.cluster) }) }
    }

    private func nextCluster(after position: Int) -> Int {
        var next = position + 1
        while !clusterStarts[next] { next += 1 }
        return next
    }

    private func skipSpaces(from position: Int) -> Int {
        var position = position
        while position < scalars.count, Self.isSpace(scalars[position]) { position += 1 }
        return position
    }

    private func canBreak(before position: Int) -> Bool {
        guard position > 0, position < scalars.count, clusterStarts[position] else { return false }
        let before = scalars[position - 1], after = scalars[position]
        if Self.isSpace(before) { return !Self.isSpace(after) }
        return Self.isIdeographic(before) || Self.isIdeographic(after)
    }

    private static func isSpace(_ scalar: UInt32) -> Bool {
        scalar == 0x20 || scalar == 0x09 || scalar == 0x3000 || scalar == 0x1680 || (0x2000...0x200A).contains(scalar)
    }

    /// Scripts written without spaces whose every character may start a line.
    private static func isIdeographic(_ scalar: UInt32) -> Bool {
        (0x2E80...0x9FFF).contains(scalar) || (0xAC00...0xD7AF).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
            || (0xFF00...0xFFEF).contains(scalar) || (0x20000...0x3FFFF).contains(scalar)
    }

    /// Marks, joiners and variation selectors belong to the character before them.
    private static func attachesToPrevious(_ scalar: UInt32, _ unicode: OpaquePointer?) -> Bool {
        if scalar == 0x200C || scalar == 0x200D || (0xFE00...0xFE0F).contains(scalar) { return true }
        let category = hb_unicode_general_category(unicode, scalar)
        return category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK
            || category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK
            || category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK
    }

    /// Spaces, digits and punctuation: drawn in the font around them when it has them.
    private static func isNeutral(_ scalar: UInt32, _ unicode: OpaquePointer?) -> Bool {
        let script = hb_unicode_script(unicode, scalar)
        return script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED
    }

    /// fribidi's embedding level of each character; the paragraph's direction is that of
    /// its first strong character (Arabic or Hebrew: right to left).
    private static func bidiLevels(_ scalars: [UInt32]) -> [UInt8] {
        let count = scalars.count
        guard count > 0 else { return [] }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = gridlock_fribidi_par_on
        fribidi_get_bidi_types(scalars, FriBidiStrIndex(count), &types)
        fribidi_get_bracket_types(scalars, FriBidiStrIndex(count), types, &brackets)
        guard fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &direction, &levels) > 0 else {
            return [UInt8](repeating: 0, count: count)
        }
        return levels.map { UInt8(max(0, $0)) }
    }

    private static func shape(
        _ scalars: [UInt32], _ range: Range<Int>, rightToLeft: Bool, script: hb_script_t, font: ShapingFont
    ) -> [Glyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        // The whole text goes in as context, so letters at a run's edge join as they should.
        hb_buffer_add_codepoints(buffer, scalars, Int32(scalars.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(font.shaper, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        let em = font.unitsPerEm
        return (0..<Int(count)).map { index in
            Glyph(
                id: infos[index].codepoint, cluster: Int(infos[index].cluster),
                advance: Double(positions[index].x_advance) / em,
                dx: Double(positions[index].x_offset) / em, dy: Double(positions[index].y_offset) / em)
        }
    }
}
