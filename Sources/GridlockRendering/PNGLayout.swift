import CZlib

/// A PNG file's chunks read before anything is decoded: the header's size (so an image
/// too large for the budget is refused from its first 33 bytes, whatever it claims to
/// hold), every chunk's CRC, the rules of the chunks a decoder needs, and the image
/// data's length and row filters. A broken file is refused with what is wrong with it;
/// libpng's own reasons reach cairo's callers only as "out of memory".
struct PNGLayout: Hashable, Sendable {
    /// What IHDR says, checked: it and the signature are a PNG's first 33 bytes.
    struct Header: Hashable, Sendable {
        let width: Int
        let height: Int
        let bitDepth: Int
        let colourType: Int
        let interlaced: Bool
    }

    let header: Header
    /// Where the IDAT chunks' contents are in the file, in order.
    let imageData: [Range<Int>]
    /// The file's length and every chunk's CRC, each checked against its chunk: two
    /// layouts alike are of files with the same bytes, short of a forged CRC.
    let length: Int
    let checksums: [UInt32]

    var width: Int { header.width }
    var height: Int { header.height }
    var interlaced: Bool { header.interlaced }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The signature and the IHDR chunk.
    static let headerBytes = 33
    /// The PNG specification's bound on widths, heights and chunk lengths.
    static let largestValue = Int(Int32.max)

    /// Bit depths allowed for each colour type (PNG specification, table 11.1).
    fileprivate static let depths: [Int: (name: String, depths: [Int], channels: Int)] = [
        0: ("greyscale", [1, 2, 4, 8, 16], 1),
        2: ("RGB", [8, 16], 3),
        3: ("palette", [1, 2, 4, 8], 1),
        4: ("greyscale with alpha", [8, 16], 2),
        6: ("RGB with alpha", [8, 16], 4),
    ]

    /// The size IHDR claims, believed only so far as to refuse an image too large before
    /// anything else of it is looked at.
    static func claimedSize(_ bytes: [UInt8]) throws(ThemeImageProblem) -> (width: Int, height: Int) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notPNG }
        guard bytes.count >= headerBytes, bigEndian(bytes, 8) == 13, type(bytes, 12) == "IHDR" else {
            throw .undecodable("no IHDR chunk of 13 bytes right after the signature")
        }
        return (bigEndian(bytes, 16), bigEndian(bytes, 20))
    }

    /// IHDR whole, from the first `headerBytes` of the file: its CRC, and a size, depth,
    /// colour type and methods that exist.
    static func header(_ bytes: [UInt8]) throws(ThemeImageProblem) -> Header {
        let (width, height) = try claimedSize(bytes)
        guard crc(bytes, 12..<29) == UInt32(bigEndian(bytes, 29)) else {
            throw .undecodable("bad CRC in the IHDR chunk at byte 8 (the file is damaged)")
        }
        guard width <= largestValue, height <= largestValue else {
            throw .undecodable("the IHDR chunk gives a size of \(width)x\(height), beyond the PNG limit of \(largestValue)")
        }
        let (bitDepth, colourType) = (Int(bytes[24]), Int(bytes[25]))
        guard let kind = depths[colourType] else {
            throw .undecodable("colour type \(colourType) does not exist (0, 2, 3, 4 or 6)")
        }
        guard kind.depths.contains(bitDepth) else {
            let allowed = kind.depths.map(String.init).joined(separator: ", ")
            throw .undecodable("bit depth \(bitDepth) is not allowed for colour type \(colourType) (\(kind.name)): \(allowed)")
        }
        guard bytes[26] == 0 else { throw .undecodable("compression method \(bytes[26]) is unknown (0)") }
        guard bytes[27] == 0 else { throw .undecodable("filter method \(bytes[27]) is unknown (0)") }
        guard bytes[28] <= 1 else { throw .undecodable("interlace method \(bytes[28]) is unknown (0 or 1)") }
        return Header(width: width, height: height, bitDepth: bitDepth, colourType: colourType, interlaced: bytes[28] == 1)
    }

    /// Every chunk of `bytes`, checked; the image data is not inflated yet (`checkImageData`).
    init(_ bytes: [UInt8]) throws(ThemeImageProblem) {
        let header = try Self.header(bytes)
        var offset = Self.headerBytes
        var sawPalette = false
        var imageData: [Range<Int>] = []
        var afterImageData = false
        var sawEnd = false
        var checksums = [UInt32(Self.bigEndian(bytes, 29))]
        while !sawEnd {
            guard offset + 8 <= bytes.count else {
                throw .undecodable("no IEND chunk: the file ends after \(offset) bytes (truncated?)")
            }
            let length = Self.bigEndian(bytes, offset)
            let name = Self.type(bytes, offset + 4)
            guard bytes[(offset + 4)..<(offset + 8)].allSatisfy(Self.isLetter) else {
                throw .undecodable("bytes \(offset + 4) to \(offset + 7) are not a chunk type (the file is damaged)")
            }
            guard length <= Self.largestValue else {
                throw .undecodable("the \(name) chunk at byte \(offset) claims \(length) bytes, beyond the PNG limit (the file is damaged)")
            }
            let data = (offset + 8)..<(offset + 8 + length)
            guard data.upperBound + 4 <= bytes.count else {
                throw .undecodable("the file ends inside the \(name) chunk at byte \(offset) (truncated?)")
            }
            let checksum = UInt32(Self.bigEndian(bytes, data.upperBound))
            guard Self.crc(bytes, (offset + 4)..<data.upperBound) == checksum else {
                throw .undecodable("bad CRC in the \(name) chunk at byte \(offset) (the file is damaged)")
            }
            checksums.append(checksum)
            switch name {
            case "IHDR": throw .undecodable("a second IHDR chunk at byte \(offset)")
            case "PLTE":
                guard !sawPalette else { throw .undecodable("a second PLTE chunk at byte \(offset)") }
                guard imageData.isEmpty else { throw .undecodable("the PLTE chunk comes after the image data (IDAT)") }
                guard length % 3 == 0, (3...768).contains(length) else {
                    throw .undecodable("the PLTE chunk holds \(length) bytes, not 1 to 256 colours of 3 bytes")
                }
                sawPalette = true
            case "IDAT":
                guard !afterImageData else {
                    throw .undecodable("IDAT chunks are not all consecutive (another one at byte \(offset))")
                }
                if header.colourType == 3, !sawPalette {
                    throw .undecodable("colour type 3 (palette) but no PLTE chunk before the image data")
                }
                imageData.append(data)
            case "IEND": sawEnd = true
            default:
                // The first letter's case: upper for chunks a decoder must understand.
                guard bytes[offset + 4] & 0x20 != 0 else {
                    throw .undecodable("unknown critical chunk \(name) at byte \(offset)")
                }
            }
            if !imageData.isEmpty && name != "IDAT" { afterImageData = true }
            offset = data.upperBound + 4
        }
        guard !imageData.isEmpty else { throw .undecodable("no IDAT chunk: the file holds no image data") }
        self.header = header
        self.imageData = imageData
        length = bytes.count
        self.checksums = checksums
    }

    var pixels: Int { width * height }

    /// The rows of filtered scanlines the image data must inflate to: one pass, or Adam7's seven.
    var passes: [(rows: Int, rowBytes: Int)] { header.passes }
}

extension PNGLayout.Header {
    /// The bytes of filtered scanlines the image data inflates to: what the image data of
    /// an image that does not compress at all takes, give or take zlib's few bytes a block.
    var filteredBytes: Int { passes.reduce(0) { $0 + $1.rows * $1.rowBytes } }

    var passes: [(rows: Int, rowBytes: Int)] {
        let bitsPerPixel = PNGLayout.depths[colourType]!.channels * bitDepth
        func pass(_ width: Int, _ height: Int) -> (rows: Int, rowBytes: Int) {
            // A pass with no columns has no rows either, not even their filter bytes.
            width == 0 || height == 0 ? (0, 0) : (height, 1 + (width * bitsPerPixel + 7) / 8)
        }
        guard interlaced else { return [pass(width, height)] }
        let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return adam7.map { x, y, dx, dy in pass((width - x + dx - 1) / dx, (height - y + dy - 1) / dy) }
    }
}

extension PNGLayout {
    /// Inflates the image data (a piece at a time, never all of it at once) far enough to
    /// know that it holds every row, each with a filter type that exists. Whatever follows
    /// the last row is not inflated: a decoder ignores it too. Run when the decoder has
    /// refused the file, to say why in its stead.
    func checkImageData(in bytes: [UInt8]) throws(ThemeImageProblem) {
        if let problem = bytes.withUnsafeBufferPointer({ inflateProblem(in: $0) }) { throw problem }
    }

    private func inflateProblem(in file: UnsafeBufferPointer<UInt8>) -> ThemeImageProblem? {
        var rowStarts: [(start: Int, rowBytes: Int, rows: Int)] = []
        var needed = 0
        for pass in passes where pass.rows > 0 {
            rowStarts.append((needed, pass.rowBytes, pass.rows))
            needed += pass.rows * pass.rowBytes
        }
        var stream = z_stream()
        guard gridlock_inflate_init(&stream) == Z_OK else { return .undecodable("zlib did not start") }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { output.deallocate() }
        var produced = 0
        var (passIndex, row) = (0, 0)
        var ended = false
        for chunk in imageData {
            stream.next_in = UnsafeMutablePointer(mutating: file.baseAddress! + chunk.lowerBound)
            stream.avail_in = UInt32(chunk.count)
            while stream.avail_in > 0 && produced < needed && !ended {
                let room = min(output.count, needed - produced)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(room)
                let status = inflate(&stream, Z_NO_FLUSH)
                let count = room - Int(stream.avail_out)
                switch status {
                case Z_OK, Z_BUF_ERROR: break
                case Z_STREAM_END: ended = true
                case Z_NEED_DICT: return .undecodable("the image data asks for a preset zlib dictionary, which PNG does not allow")
                default:
                    let said = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return .undecodable("the image data is corrupt (zlib: \(said))")
                }
                // Each row starts with its filter type; rows start in order, so the next
                // one to look at is either in this piece or after it.
                while passIndex < rowStarts.count {
                    let pass = rowStarts[passIndex]
                    let start = pass.start + row * pass.rowBytes
                    guard start < produced + count else { break }
                    let filter = output[start - produced]
                    guard filter <= 4 else {
                        let which = interlaced ? " of pass \(passIndex + 1) of 7" : ""
                        return .undecodable("row \(row + 1)\(which) has filter type \(filter); 0 to 4 exist (the file is damaged)")
                    }
                    row += 1
                    if row == pass.rows { (passIndex, row) = (passIndex + 1, 0) }
                }
                produced += count
                if count == 0 && status == Z_BUF_ERROR { break }
            }
            if produced >= needed || ended { break }
        }
        guard produced >= needed else {
            return .undecodable("the image data is short: \(produced) of the \(needed) bytes a \(width)x\(height) image needs (truncated?)")
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func type(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<(at + 4)].map { isLetter($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// zlib's CRC-32, the one PNG uses, over the chunk's type and data.
    private static func crc(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(crc32(0, buffer.baseAddress! + range.lowerBound, UInt32(range.count)))
        }
    }
}
