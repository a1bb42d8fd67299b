import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

@Suite struct ContactSheetTests {
    func solid(_ width: Int, _ height: Int, _ color: Color) throws -> ShadowBuffer {
        let buffer = try ShadowBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer.setPixel(x: x, y: y, to: color) }
        }
        return buffer
    }

    @Test("frames are shrunk into a grid with captions") func framesAreShrunkIntoAGridWithCaptions() throws {
        let red = Color(red: 0xE0, green: 0x20, blue: 0x20), blue = Color(red: 0x20, green: 0x40, blue: 0xE0)
        let sheet = ContactSheet(columns: 2, thumbnailSize: 100)
        let entries = [
            ContactSheet.Entry(frame: try solid(80, 48, red), caption: "ready"),
            ContactSheet.Entry(frame: try solid(48, 80, blue), caption: "drawing"),
            ContactSheet.Entry(frame: try solid(80, 48, blue), caption: "error"),
        ]
        let image = try sheet.compose(entries)
        // Two columns, two rows of 100 px thumbnails, 28 px captions and 16 px margins.
        #expect(image.width == 16 + 2 * (100 + 16))
        #expect(image.height == 16 + 2 * (100 + 28 + 16))
        for (index, color) in [red, blue, blue].enumerated() {
            let (x, y) = sheet.cellOrigin(of: index)
            #expect(image.pixel(x: x + 50, y: y + 50) == color, "frame \(index)")
            let caption = Rect(x: Double(x), y: Double(y + 100), width: 100, height: 28)
            #expect(count(sheet.captionColor, in: caption, of: image, within: 40) > 10, "caption \(index)")
        }
        // A landscape frame scaled to 100 wide is 60 high and stands on its caption.
        let (x0, y0) = sheet.cellOrigin(of: 0)
        #expect(image.pixel(x: x0 + 50, y: y0 + 20) == sheet.background)
        #expect(image.pixel(x: x0 + 50, y: y0 + 45) == red)
        #expect(image.pixel(x: x0 + 50, y: y0 + 99) == red)
        // The fourth cell is empty.
        let (x3, y3) = sheet.cellOrigin(of: 3)
        #expect(image.pixel(x: x3 + 50, y: y3 + 50) == sheet.background)
    }

    @Test("nothing to compose is an error") func nothingToComposeIsAnError() {
        #expect(throws: RenderError.noFrames) { _ = try ContactSheet().compose([]) }
    }
}
