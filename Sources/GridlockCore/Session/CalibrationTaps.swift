/// Where a finger landed on each of calibration's five crosses, as the panel's face read
/// them with its touchscreen's calibration set aside (session protocol version 5:
/// `calibrated`, `calibration`). The face only reports; `gridlock calibrate`, as root, fits
/// the matrix and judges it, so a face that lies can at most have a fit refused or store a
/// calibration that misplaces its own touches, never open anything.
public struct CalibrationTaps: Hashable, Sendable {
    /// The crosses in the order shown, as fractions of the logical frame: the corners inset
    /// by 10 % (top-left, top-right, bottom-right, bottom-left) and the centre, as tslib's
    /// `ts_calibrate` shows them.
    public static let targets: [Point] = [
        Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.9), Point(x: 0.1, y: 0.9), Point(x: 0.5, y: 0.5),
    ]

    /// The display's rotation (`[display] rotation=` of the face's file): the matrix acts
    /// before it.
    public var rotation: Rotation
    /// The logical frame in pixels, for the fit's error figures.
    public var width: Int
    public var height: Int
    /// One per target, in order: the device's position normalised to 0...1 per axis,
    /// unturned (`CoordinateMapper`'s terms with the identity matrix).
    public var touches: [Point]

    public init(rotation: Rotation, width: Int, height: Int, touches: [Point]) {
        self.rotation = rotation
        self.width = width
        self.height = height
        self.touches = touches
    }

    /// How far outside the device's range a touch may be reported: a panel off by its own
    /// size is not one calibration can save (`CalibrationFit` refuses far less).
    public static let touchRange: ClosedRange<Double> = -1.0...2.0
    /// A touch's coordinates travel as millionths of the device's range.
    static let scale = 1_000_000.0
    /// Rotation (a quarter turn count), width and height, then x and y of each target's touch.
    static let bodyLength = 1 + 2 + 2 + targets.count * 8

    /// The body of a `calibrated` or `calibration` message. Values outside what `decode`
    /// reads are the caller's mistake: they are clamped, and the reader refuses them.
    var body: [UInt8] {
        var bytes: [UInt8] = [UInt8(rotation.degrees / 90)]
        for side in [width, height] {
            let value = UInt16(clamping: side)
            bytes += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
        }
        for index in Self.targets.indices {
            let touch = index < touches.count ? touches[index] : Point(x: .nan, y: .nan)
            for coordinate in [touch.x, touch.y] {
                let scaled = coordinate.isFinite ? (coordinate * Self.scale).rounded() : Double(Int32.min)
                bytes += SessionReply.word(UInt32(bitPattern: Int32(max(Double(Int32.min), min(Double(Int32.max), scaled)))))
            }
        }
        return bytes
    }

    /// Reads a body `body` wrote: a known rotation, sides in 1...65535, every touch within
    /// `touchRange`.
    static func decode(_ body: ArraySlice<UInt8>) throws(SessionDecodeError) -> CalibrationTaps {
        let bytes = Array(body)
        guard bytes.count == bodyLength else { throw .wrongCalibration("\(bytes.count) bytes of taps, expected \(bodyLength)") }
        guard bytes[0] < 4, let rotation = Rotation(degrees: Int(bytes[0]) * 90) else {
            throw .wrongCalibration("unknown rotation \(bytes[0])")
        }
        let width = Int(bytes[1]) << 8 | Int(bytes[2])
        let height = Int(bytes[3]) << 8 | Int(bytes[4])
        guard width > 0, height > 0 else { throw .wrongCalibration("a frame of \(width)x\(height)") }
        var touches: [Point] = []
        for index in Self.targets.indices {
            var coordinates: [Double] = []
            for axis in 0..<2 {
                let raw = SessionReply.word(bytes, at: 5 + index * 8 + axis * 4)
                let value = Double(Int32(bitPattern: raw)) / scale
                guard touchRange.contains(value) else {
                    throw .wrongCalibration("tap \(index + 1) at \(value) of the device's range, outside \(touchRange.lowerBound)...\(touchRange.upperBound)")
                }
                coordinates.append(value)
            }
            touches.append(Point(x: coordinates[0], y: coordinates[1]))
        }
        return CalibrationTaps(rotation: rotation, width: width, height: height, touches: touches)
    }
}
