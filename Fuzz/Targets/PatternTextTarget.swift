import GridlockCore

extension FuzzTargets {
    /// `Pattern(text:shape:)`, what `gridlock hash` and `enroll --pattern` read: an accepted
    /// pattern has distinct nodes on the grid, and its text form reads back as itself.
    static let patternText = FuzzTarget(
        name: "pattern-text",
        summary: "`Pattern(text:shape:)` on every grid shape; an accepted pattern is valid and its text reads back the same",
        maximumLength: 256,
        run: { bytes throws(FuzzFinding) in
            guard let first = bytes.first else { return }
            // The first byte picks the grid: rows and columns from 2 to 8, as the config allows.
            let dimensions = GridShape.allowedDimensions
            let rows = dimensions.lowerBound + Int(first & 0x0f) % dimensions.count
            let columns = dimensions.lowerBound + Int(first >> 4) % dimensions.count
            let shape = try! GridShape(rows: rows, columns: columns)
            let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
            guard let pattern = try? Pattern(text: text, shape: shape) else { return }
            try require(!pattern.nodes.isEmpty, "accepted an empty pattern from \(quoted(bytes))")
            try require(
                pattern.nodes.allSatisfy { (0..<shape.nodeCount).contains($0) },
                "accepted a node outside the \(shape) grid: \(pattern.nodes)")
            try require(Set(pattern.nodes).count == pattern.count, "accepted a repeated node: \(pattern.nodes)")
            let again = try? Pattern(text: pattern.text, shape: shape)
            try require(again == pattern, "the text form \(pattern.text) does not read back as \(pattern.nodes)")
        },
        seeds: { _ in
            [
                ("3x3-1-2-3-6-9", 0x11, "1-2-3-6-9"), ("3x3-spaces", 0x11, " 1-5-9\t\n"),
                ("8x8-64", 0x66, "64-1-8-57"), ("4x4-out-of-range", 0x22, "1-17"),
                ("3x3-repeated", 0x11, "1-2-1"), ("3x3-empty-field", 0x11, "1--2"), ("3x3-zero", 0x11, "0-1"),
            ].map { name, shape, text in FuzzSeed(name, [UInt8(shape)] + Array(text.utf8)) }
        })
}
