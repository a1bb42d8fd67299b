import CZlib
import GridlockThemeFiles

/// A PNG file's chunks read before anything is decoded: the header (`PNGHeader`, so an
/// image too large for the budget is refused from its first 33 bytes, whatever it claims
/// to hold), every chunk's CRC, the rules of the chunks a decoder needs, and the image
/// data's length and row filters. A broken file is refused with what is wrong with it;
/// libpng's own reasons reach cairo's callers only as "out of memory".
struct PNGLayout: Hashable, Sendable {
    let header: PNGHeader
    /// Where the IDAT chunks' contents are in the file, in order.
    let imageData: [Range<Int>]
    /// The file's length and every chunk's CRC, each checked against its chunk: two
    /// layouts alike are of files with the same bytes, short of a forged CRC.
    let length: Int
    let checksums: [UInt32]

    var width: Int { header.width }
    var height: Int { header.height }
    var interlaced: Bool { header.interlaced }

    /// Every chunk of `bytes`, checked; the image data is not inflated yet (`checkImageData`).
    init(_ bytes: [UInt8]) throws(ThemeImageProblem) {
        let header = try PNGHeader(bytes)
        var offset = PNGHeader.byteCount
        var sawPalette = false
        var imageData: [Range<Int>] = []
        var afterImageData = false
        var sawEnd = false
        var checksums = [UInt32(PNGHeader.bigEndian(bytes, 29))]
        while !sawEnd {
            guard offset + 8 <= bytes.count else {
                throw .undecodable("no IEND chunk: the file ends after \(offset) bytes (truncated?)")
            }
            let length = PNGHeader.bigEndian(bytes, offset)
            let name = PNGHeader.chunkType(bytes, offset + 4)
            guard bytes[(offset + 4)..<(offset + 8)].allSatisfy(PNGHeader.isLetter) else {
                throw .undecodable("bytes \(offset + 4) to \(offset + 7) are not a chunk type (the file is damaged)")
            }
            guard length <= PNGHeader.largestValue else {
                throw .undecodable("the \(name) chunk at byte \(offset) claims \(length) bytes, beyond the PNG limit (the file is damaged)")
            }
            let data = (offset + 8)..<(offset + 8 + length)
            guard data.upperBound + 4 <= bytes.count else {
                throw .undecodable("the file ends inside the \(name) chunk at byte \(offset) (truncated?)")
            }
            let checksum = UInt32(PNGHeader.bigEndian(bytes, data.upperBound))
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

    /// zlib's CRC-32, the one PNG uses, over the chunk's type and data.
    private static func crc(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(crc32(0, buffer.baseAddress! + range.lowerBound, UInt32(range.count)))
        }
    }
}
