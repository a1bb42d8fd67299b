import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

@Suite struct ShadowBufferTests {
    /// A colour that names its logical position, so a misplaced pixel says where it came from.
    static func marker(x: Int, y: Int) -> Color { Color(red: UInt8(x), green: UInt8(y), blue: 0xA5) }

    static func numbered(width: Int, height: Int) throws -> ShadowBuffer {
        let buffer = try ShadowBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer.setPixel(x: x, y: y, to: marker(x: x, y: y)) }
        }
        return buffer
    }

    /// A physical scan-out buffer with a padded stride, prefilled so untouched bytes show.
    struct ScanOut {
        static let sentinel: UInt8 = 0xEE
        let width: Int, height: Int, stride: Int
        var bytes: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            stride = width * 4 + 12
            bytes = Array(repeating: Self.sentinel, count: stride * height)
        }

        func color(x: Int, y: Int) -> Color? {
            let i = y * stride + x * 4
            let word = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            if word == 0xEEEE_EEEE { return nil }
            return Color(red: UInt8(word >> 16 & 0xFF), green: UInt8(word >> 8 & 0xFF), blue: UInt8(word & 0xFF))
        }
    }

    func copy(_ buffer: ShadowBuffer, _ rects: [Rect], _ rotation: Rotation) -> ScanOut {
        let physical = rotation.swapsAxes ? (buffer.height, buffer.width) : (buffer.width, buffer.height)
        var out = ScanOut(width: physical.0, height: physical.1)
        let stride = out.stride
        out.bytes.withUnsafeMutableBytes {
            buffer.copy(rects: rects, to: $0.baseAddress!, destinationStride: stride, rotation: rotation)
        }
        return out
    }

    /// Where Rotation (the convention touch input shares) says a logical pixel's centre goes.
    func physicalPixel(x: Int, y: Int, logical: (Int, Int), physical: (Int, Int), _ rotation: Rotation) -> (Int, Int) {
        let normalised = Point(x: (Double(x) + 0.5) / Double(logical.0), y: (Double(y) + 0.5) / Double(logical.1))
        let p = rotation.physical(fromLogical: normalised)
        return (Int(p.x * Double(physical.0)), Int(p.y * Double(physical.1)))
    }

    @Test("invalid sizes are refused") func invalidSizesAreRefused() {
        for (w, h) in [(0, 10), (10, -1), (40000, 10)] {
            #expect(throws: RenderError.invalidSize(width: w, height: h)) { try ShadowBuffer(width: w, height: h) }
        }
    }

    @Test("pixels round trip and start black") func pixelsRoundTripAndStartBlack() throws {
        let buffer = try ShadowBuffer(width: 7, height: 3)
        #expect(buffer.stride >= 28)
        #expect(buffer.pixel(x: 6, y: 2) == Color(red: 0, green: 0, blue: 0))
        let orange = Color(red: 0xFF, green: 0x80, blue: 0x01)
        buffer.setPixel(x: 6, y: 2, to: orange)
        #expect(buffer.pixel(x: 6, y: 2) == orange)
        #expect(buffer.pixel(x: 5, y: 2) == Color(red: 0, green: 0, blue: 0))
    }

    @Test("whole frame lands where the rotation convention says", arguments: Rotation.allCases)
    func wholeFrameLandsWhereTheRotationConventionSays(rotation: Rotation) throws {
        let (w, h) = (6, 4)
        let buffer = try Self.numbered(width: w, height: h)
        let out = copy(buffer, [buffer.frame], rotation)
        for y in 0..<h {
            for x in 0..<w {
                let (px, py) = physicalPixel(x: x, y: y, logical: (w, h), physical: (out.width, out.height), rotation)
                #expect(out.color(x: px, y: py) == Self.marker(x: x, y: y), "logical (\(x), \(y)) at \(rotation)")
            }
        }
        // The row padding of a scan-out buffer is not ours to write.
        for y in 0..<out.height {
            #expect(out.bytes[(y * out.stride + out.width * 4)..<((y + 1) * out.stride)].allSatisfy { $0 == ScanOut.sentinel })
        }
    }

    @Test("marker lands at the expected physical pixel") func markerLandsAtTheExpectedPhysicalPixel() throws {
        // Logical 6x4; physical 4x6 when turned a quarter.
        let buffer = try ShadowBuffer(width: 6, height: 4)
        let red = Color(red: 0xFF, green: 0, blue: 0)
        buffer.setPixel(x: 0, y: 0, to: red)
        buffer.setPixel(x: 5, y: 1, to: Color(red: 0, green: 0xFF, blue: 0))
        let expected: [(Rotation, origin: (Int, Int), other: (Int, Int))] = [
            (.none, (0, 0), (5, 1)),
            (.clockwise90, (3, 0), (2, 5)),  // logical top-left goes to the physical top-right
            (.upsideDown, (5, 3), (0, 2)),
            (.clockwise270, (0, 5), (1, 0)),
        ]
        for (rotation, origin, other) in expected {
            let out = copy(buffer, [buffer.frame], rotation)
            #expect(out.color(x: origin.0, y: origin.1) == red, "\(rotation)")
            #expect(out.color(x: other.0, y: other.1) == Color(red: 0, green: 0xFF, blue: 0), "\(rotation)")
        }
    }

    @Test("only the rectangles are written snapped outwards", arguments: Rotation.allCases)
    func onlyTheRectanglesAreWrittenSnappedOutwards(rotation: Rotation) throws {
        let (w, h) = (9, 7)
        let buffer = try Self.numbered(width: w, height: h)
        // 1.5..3.2 x 2.9..4.1 covers pixels 1...3 x 2...4; the second rect pokes out of the frame.
        let rects = [Rect(x: 1.5, y: 2.9, width: 1.7, height: 1.2), Rect(x: 7, y: 5, width: 10, height: 10)]
        let out = copy(buffer, rects, rotation)
        var written = 0
        for y in 0..<h {
            for x in 0..<w {
                let inside = ((1...3).contains(x) && (2...4).contains(y)) || (x >= 7 && y >= 5)
                let (px, py) = physicalPixel(x: x, y: y, logical: (w, h), physical: (out.width, out.height), rotation)
                let landed = out.color(x: px, y: py)
                #expect(landed == (inside ? Self.marker(x: x, y: y) : nil), "logical (\(x), \(y)) at \(rotation)")
                if landed != nil { written += 1 }
            }
        }
        #expect(written == 9 + 4)
    }
}
