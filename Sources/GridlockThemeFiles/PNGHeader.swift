import GridlockCore

/// A PNG file's signature and IHDR chunk, its first 33 bytes, checked: the size, depth,
/// colour type and methods it claims, and the CRC over them. Believed only so far as to
/// bound what the rest of the file may be (`ThemeImageBudget`) before any of it is read;
/// the chunks after it and the decoding are the renderer's.
package struct PNGHeader: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package let bitDepth: Int
    package let colourType: Int
    package let interlaced: Bool

    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The signature and the IHDR chunk.
    package static let byteCount = 33
    /// The PNG specification's bound on widths, heights and chunk lengths.
    package static let largestValue = Int(Int32.max)

    /// Bit depths allowed for each colour type (PNG specification, table 11.1).
    static let depths: [Int: (name: String, depths: [Int], channels: Int)] = [
        0: ("greyscale", [1, 2, 4, 8, 16], 1),
        2: ("RGB", [8, 16], 3),
        3: ("palette", [1, 2, 4, 8], 1),
        4: ("greyscale with alpha", [8, 16], 2),
        6: ("RGB with alpha", [8, 16], 4),
    ]

    /// The size IHDR claims, believed only so far as to refuse an image too large before
    /// anything else of it is looked at.
    package static func claimedSize(_ bytes: [UInt8]) throws(ThemeImageProblem) -> (width: Int, height: Int) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notPNG }
        guard bytes.count >= byteCount, bigEndian(bytes, 8) == 13, chunkType(bytes, 12) == "IHDR" else {
            throw .undecodable("no IHDR chunk of 13 bytes right after the signature")
        }
        return (bigEndian(bytes, 16), bigEndian(bytes, 20))
    }

    /// IHDR whole, from the first `byteCount` bytes of the file.
    package init(_ bytes: [UInt8]) throws(ThemeImageProblem) {
        let (width, height) = try Self.claimedSize(bytes)
        guard CRC32.checksum(bytes[12..<29]) == UInt32(Self.bigEndian(bytes, 29)) else {
            throw .undecodable("bad CRC in the IHDR chunk at byte 8 (the file is damaged)")
        }
        guard width <= Self.largestValue, height <= Self.largestValue else {
            throw .undecodable("the IHDR chunk gives a size of \(width)x\(height), beyond the PNG limit of \(Self.largestValue)")
        }
        let (bitDepth, colourType) = (Int(bytes[24]), Int(bytes[25]))
        guard let kind = Self.depths[colourType] else {
            throw .undecodable("colour type \(colourType) does not exist (0, 2, 3, 4 or 6)")
        }
        guard kind.depths.contains(bitDepth) else {
            let allowed = kind.depths.map(String.init).joined(separator: ", ")
            throw .undecodable("bit depth \(bitDepth) is not allowed for colour type \(colourType) (\(kind.name)): \(allowed)")
        }
        guard bytes[26] == 0 else { throw .undecodable("compression method \(bytes[26]) is unknown (0)") }
        guard bytes[27] == 0 else { throw .undecodable("filter method \(bytes[27]) is unknown (0)") }
        guard bytes[28] <= 1 else { throw .undecodable("interlace method \(bytes[28]) is unknown (0 or 1)") }
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colourType = colourType
        interlaced = bytes[28] == 1
    }

    package var pixels: Int { width * height }

    /// The bytes of filtered scanlines the image data inflates to: what the image data of
    /// an image that does not compress at all takes, give or take zlib's few bytes a block.
    package var filteredBytes: Int { passes.reduce(0) { $0 + $1.rows * $1.rowBytes } }

    /// The rows of filtered scanlines the image data must inflate to: one pass, or Adam7's seven.
    package var passes: [(rows: Int, rowBytes: Int)] {
        let bitsPerPixel = Self.depths[colourType]!.channels * bitDepth
        func pass(_ width: Int, _ height: Int) -> (rows: Int, rowBytes: Int) {
            // A pass with no columns has no rows either, not even their filter bytes.
            width == 0 || height == 0 ? (0, 0) : (height, 1 + (width * bitsPerPixel + 7) / 8)
        }
        guard interlaced else { return [pass(width, height)] }
        let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return adam7.map { x, y, dx, dy in pass((width - x + dx - 1) / dx, (height - y + dy - 1) / dy) }
    }

    package static func bigEndian(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// A chunk's four-letter type, anything but a letter shown as `?`.
    package static func chunkType(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<(at + 4)].map { isLetter($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    package static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
