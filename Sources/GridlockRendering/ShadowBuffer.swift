import CCairo
import GridlockCore
import LinuxSys

/// The frame as drawn, in system memory: XRGB8888 (cairo's RGB24, native-endian
/// `0x00RRGGBB` words), in the logical orientation.
///
/// Drawing happens here and never in the scan-out buffer, because dumb buffers may be
/// uncached and blending in them is slow; the display copies damaged rectangles out.
/// A cairo image surface wraps the pixels so the renderer and PNG code draw into the
/// same memory without another copy; the memory itself is made resident up front.
public final class ShadowBuffer {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (at least `4 * width`).
    public let stride: Int
    let surface: OpaquePointer
    let pixels: UnsafeMutableRawPointer
    private let memory: PageMemory

    /// A canvas filled with black.
    public init(width: Int, height: Int) throws(RenderError) {
        guard (1...32767).contains(width), (1...32767).contains(height) else {
            throw .invalidSize(width: width, height: height)
        }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width)))
        let memory: PageMemory
        do {
            memory = try PageMemory(bytes: stride * height)
        } catch {
            throw .cairo(operation: "allocate a \(width)x\(height) canvas", status: "\(error)")
        }
        let data = memory.base.assumingMemoryBound(to: UInt8.self)
        guard let surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride)) else {
            throw .cairo(operation: "create a \(width)x\(height) image surface", status: "no surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(operation: "create a \(width)x\(height) image surface", status: describe(status))
        }
        self.width = width
        self.height = height
        self.stride = stride
        self.surface = surface
        self.pixels = memory.base
        self.memory = memory
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    public var frame: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    public func pixel(x: Int, y: Int) -> Color {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let word = pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
        return Color(red: UInt8(truncatingIfNeeded: word >> 16), green: UInt8(truncatingIfNeeded: word >> 8),
                     blue: UInt8(truncatingIfNeeded: word))
    }

    /// For tests and tools that plant markers; drawing goes through cairo.
    public func setPixel(x: Int, y: Int, to color: Color) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        cairo_surface_flush(surface)
        pixels.storeBytes(of: Self.word(color), toByteOffset: y * stride + x * 4, as: UInt32.self)
        // cairo may cache what it believes the pixels are; tell it they changed.
        cairo_surface_mark_dirty_rectangle(surface, Int32(x), Int32(y), 1, 1)
    }

    /// All rows, padding included, for comparisons and checksums.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        cairo_surface_flush(surface)
        return try body(UnsafeRawBufferPointer(start: pixels, count: stride * height))
    }

    /// Copies the `rects` of this (logical) frame into a scan-out buffer of the physical
    /// size, i.e. this frame turned clockwise by `rotation` (`width` x `height` for none
    /// and 180 degrees, `height` x `width` for 90 and 270). Rectangles are snapped
    /// outwards to whole pixels and clipped to the frame.
    ///
    /// The destination is only ever written, row by row in increasing address order,
    /// because dumb buffers are often uncached write-combined memory where reads and
    /// scattered writes are expensive.
    public func copy(
        rects: [Rect], to destination: UnsafeMutableRawPointer, destinationStride: Int, rotation: Rotation
    ) {
        let physicalWidth = rotation.swapsAxes ? height : width
        precondition(destinationStride >= physicalWidth * 4, "destination stride \(destinationStride) too small")
        cairo_surface_flush(surface)
        for rect in rects {
            guard let clipped = rect.integral.intersection(frame) else { continue }
            let x0 = Int(clipped.minX), y0 = Int(clipped.minY)
            let x1 = Int(clipped.maxX), y1 = Int(clipped.maxY)
            switch rotation {
            case .none:
                copyUnrotated(x0, y0, x1, y1, destination, destinationStride)
            case .clockwise90:
                copyClockwise90(x0, y0, x1, y1, destination, destinationStride)
            case .upsideDown:
                copyUpsideDown(x0, y0, x1, y1, destination, destinationStride)
            case .clockwise270:
                copyClockwise270(x0, y0, x1, y1, destination, destinationStride)
            }
        }
    }

    private func copyUnrotated(
        _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ destination: UnsafeMutableRawPointer, _ destinationStride: Int
    ) {
        let bytes = (x1 - x0) * 4
        for y in y0..<y1 {
            (destination + y * destinationStride + x0 * 4)
                .copyMemory(from: pixels + y * stride + x0 * 4, byteCount: bytes)
        }
    }

    /// Logical (x, y) lands at physical (height - 1 - y, x): physical row = logical column.
    private func copyClockwise90(
        _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ destination: UnsafeMutableRawPointer, _ destinationStride: Int
    ) {
        for x in x0..<x1 {
            let row = destination + x * destinationStride
            // Walking the physical row left to right means walking the logical column upwards.
            for y in Swift.stride(from: y1 - 1, through: y0, by: -1) {
                let word = pixels.load(fromByteOffset: y * self.stride + x * 4, as: UInt32.self)
                row.storeBytes(of: word, toByteOffset: (height - 1 - y) * 4, as: UInt32.self)
            }
        }
    }

    /// Logical (x, y) lands at physical (width - 1 - x, height - 1 - y).
    private func copyUpsideDown(
        _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ destination: UnsafeMutableRawPointer, _ destinationStride: Int
    ) {
        for y in Swift.stride(from: y1 - 1, through: y0, by: -1) {
            let row = destination + (height - 1 - y) * destinationStride
            let source = pixels + y * self.stride
            for x in Swift.stride(from: x1 - 1, through: x0, by: -1) {
                let word = source.load(fromByteOffset: x * 4, as: UInt32.self)
                row.storeBytes(of: word, toByteOffset: (width - 1 - x) * 4, as: UInt32.self)
            }
        }
    }

    /// Logical (x, y) lands at physical (y, width - 1 - x).
    private func copyClockwise270(
        _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ destination: UnsafeMutableRawPointer, _ destinationStride: Int
    ) {
        for x in Swift.stride(from: x1 - 1, through: x0, by: -1) {
            let row = destination + (width - 1 - x) * destinationStride
            for y in y0..<y1 {
                let word = pixels.load(fromByteOffset: y * self.stride + x * 4, as: UInt32.self)
                row.storeBytes(of: word, toByteOffset: y * 4, as: UInt32.self)
            }
        }
    }

    static func word(_ color: Color) -> UInt32 {
        UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
    }
}
