import Foundation
import GridlockCore
@testable import GridlockDisplay
@testable import GridlockRendering
@testable import GridlockThemeFiles
import Testing

/// PNG files built byte by byte, with their own CRC-32 and zlib framing (stored deflate
/// blocks: no compressor involved), so each test says exactly which byte is wrong.
enum PNGBytes {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 of PNG (and zlib), bit by bit: an oracle apart from the one under test.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8], crc override: UInt32? = nil) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(override ?? crc(typed))
    }

    static func header(width: UInt32, height: UInt32, depth: UInt8 = 8, colour: UInt8 = 6, interlace: UInt8 = 0) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [depth, colour, 0, 0, interlace])
    }

    /// `raw` in a zlib stream of stored blocks, with its Adler-32.
    static func zlib(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var blocks = stride(from: 0, to: raw.count, by: 65535).map { raw[$0..<min($0 + 65535, raw.count)] }
        if blocks.isEmpty { blocks = [raw[...]] }
        for (index, block) in blocks.enumerated() {
            let length = UInt16(block.count)
            out += [index == blocks.count - 1 ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += block
        }
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + bigEndian(b << 16 | a)
    }

    /// Filtered rows of an RGBA image, every pixel `pixel`, filter type 0.
    static func rows(width: Int, height: Int, pixel: [UInt8] = [200, 40, 40, 255]) -> [UInt8] {
        (0..<height).flatMap { _ in [0] + (0..<width).flatMap { _ in pixel } }
    }

    static func png(
        width: UInt32 = 4, height: UInt32 = 3, depth: UInt8 = 8, colour: UInt8 = 6, interlace: UInt8 = 0,
        before: [[UInt8]] = [], imageData: [UInt8]? = nil, end: Bool = true
    ) -> [UInt8] {
        let data = imageData ?? zlib(rows(width: Int(width), height: Int(height)))
        return signature + header(width: width, height: height, depth: depth, colour: colour, interlace: interlace)
            + before.flatMap { $0 } + chunk("IDAT", data) + (end ? chunk("IEND", []) : [])
    }

    /// 16384x16384 at 1 bit of grey, 2 KiB a row: what a 32 KB file can claim. Its image
    /// data here is a stub, so a check that decoded it would say so instead of refusing the size.
    static var bomb: [UInt8] {
        png(width: 16384, height: 16384, depth: 1, colour: 0, imageData: zlib([0, 0, 0, 0]))
    }
}

@Suite struct PNGLayoutTests {
    func problem(_ bytes: [UInt8]) -> ThemeImageProblem? {
        do throws(ThemeImageProblem) {
            let layout = try PNGLayout(bytes)
            try layout.checkImageData(in: bytes)
            return nil
        } catch {
            return error
        }
    }

    func reason(_ bytes: [UInt8]) -> String {
        problem(bytes).map { "\($0)" } ?? "accepted"
    }

    @Test("a PNG built byte by byte passes and cairo decodes it to its header's size")
    func aSoundFileIsAccepted() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let path = try files.file("made.png", PNGBytes.png())
        #expect(problem(PNGBytes.png()) == nil)
        #expect(ThemeImageCheck.problems(of: [path]).isEmpty)
        let interlaced = PNGBytes.png(width: 5, height: 5, interlace: 1, imageData: PNGBytes.zlib(
            // Adam7's seven passes over 5x5 pixels (widths x heights), 25 pixels in all.
            [(1, 1), (1, 1), (2, 1), (1, 2), (3, 1), (2, 3), (5, 2)].flatMap { w, h in PNGBytes.rows(width: w, height: h) }))
        #expect(problem(interlaced) == nil)
        let interlacedPath = try files.file("interlaced.png", interlaced)
        #expect(ThemeImageCheck.problems(of: [interlacedPath]).isEmpty)
    }

    @Test("each kind of damage is named: CRC, depth, colour type, palette, short or corrupt image data, filters, chunks")
    func eachCorruptionIsNamed() {
        let good = PNGBytes.png()
        var badCRC = good
        badCRC[good.count - 20] ^= 0x01
        let palette = PNGBytes.chunk("PLTE", [0, 0, 0, 255, 255, 255])
        let cases: [(String, [UInt8], String)] = [
            ("a flipped bit", badCRC, "not a valid PNG: bad CRC in the IDAT chunk at byte 33 (the file is damaged)"),
            ("depth 3", PNGBytes.png(depth: 3), "not a valid PNG: bit depth 3 is not allowed for colour type 6 (RGB with alpha): 8, 16"),
            ("RGB at 4 bits", PNGBytes.png(depth: 4, colour: 2), "not a valid PNG: bit depth 4 is not allowed for colour type 2 (RGB): 8, 16"),
            ("colour type 5", PNGBytes.png(colour: 5), "not a valid PNG: colour type 5 does not exist (0, 2, 3, 4 or 6)"),
            ("a palette image without PLTE", PNGBytes.png(colour: 3),
             "not a valid PNG: colour type 3 (palette) but no PLTE chunk before the image data"),
            ("a PLTE of 4 bytes", PNGBytes.png(colour: 3, before: [PNGBytes.chunk("PLTE", [1, 2, 3, 4])]),
             "not a valid PNG: the PLTE chunk holds 4 bytes, not 1 to 256 colours of 3 bytes"),
            ("image data two rows short", PNGBytes.png(imageData: PNGBytes.zlib(PNGBytes.rows(width: 4, height: 1))),
             "not a valid PNG: the image data is short: 17 of the 51 bytes a 4x3 image needs (truncated?)"),
            ("image data that is not zlib", PNGBytes.png(imageData: [0x78, 0x01, 0x07, 0xFF, 0xFF]),
             "not a valid PNG: the image data is corrupt (zlib: invalid block type)"),
            ("a row with filter type 9", PNGBytes.png(imageData: PNGBytes.zlib(
                PNGBytes.rows(width: 4, height: 1) + [9] + Array(repeating: 0, count: 16) + PNGBytes.rows(width: 4, height: 1))),
             "not a valid PNG: row 2 has filter type 9; 0 to 4 exist (the file is damaged)"),
            ("no IDAT", PNGBytes.signature + PNGBytes.header(width: 4, height: 3) + PNGBytes.chunk("IEND", []),
             "not a valid PNG: no IDAT chunk: the file holds no image data"),
            ("no IEND", PNGBytes.png(end: false), "not a valid PNG: no IEND chunk: the file ends after \(good.count - 12) bytes (truncated?)"),
            ("cut inside IDAT", Array(good.prefix(50)), "not a valid PNG: the file ends inside the IDAT chunk at byte 33 (truncated?)"),
            ("an unknown critical chunk", PNGBytes.png(before: [PNGBytes.chunk("ZZZZ", [1])]),
             "not a valid PNG: unknown critical chunk ZZZZ at byte 33"),
            ("IDAT split by another chunk",
             PNGBytes.signature + PNGBytes.header(width: 4, height: 3) + PNGBytes.chunk("IDAT", [0x78]) + PNGBytes.chunk("tEXt", [65])
                + PNGBytes.chunk("IDAT", [0x01]) + PNGBytes.chunk("IEND", []),
             "not a valid PNG: IDAT chunks are not all consecutive (another one at byte 59)"),
            ("interlace method 2", PNGBytes.png(interlace: 2), "not a valid PNG: interlace method 2 is unknown (0 or 1)"),
            ("a JPEG", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 40), "not a PNG file (it does not start with the PNG signature)"),
        ]
        for (what, bytes, expected) in cases {
            #expect(reason(bytes) == expected, "\(what)")
        }
        // An unknown ancillary chunk (lower-case first letter) is skipped, as decoders skip it;
        // a palette image with its PLTE is sound.
        #expect(problem(PNGBytes.png(before: [PNGBytes.chunk("zzZZ", [1])])) == nil)
        #expect(problem(PNGBytes.png(depth: 1, colour: 3, before: [palette], imageData: PNGBytes.zlib(
            Array(repeating: [0, 0b1010_0000], count: 3).flatMap { $0 })) ) == nil)
    }

    @Test("image data cairo refuses is named by the layout's inflating check, not as cairo's 'out of memory'")
    func cairosRefusalGetsTheRealReason() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let short = try files.file("short.png", PNGBytes.png(imageData: PNGBytes.zlib(PNGBytes.rows(width: 4, height: 1))))
        let problems = ThemeImageCheck.problems(of: [short])
        #expect(problems.map(\.index) == [0])
        #expect(problems.first.map { "\($0.problem)" }?.contains("the image data is short") == true)
        // Where a value is written only its 33-byte header is read: the rest waits for the images in effect.
        let size = try ThemeImageHead(path: short).header
        #expect(size.width == 4 && size.height == 3)
    }
}
