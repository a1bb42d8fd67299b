import GridlockCore
import GridlockInput
import Testing

@Suite("CoordinateMapper")
struct CoordinateMapperTests {
    static let x = AbsInfo(minimum: 0, maximum: 4095)
    static let y = AbsInfo(minimum: 100, maximum: 2147)
    static let physical = Size(width: 800, height: 480)
    /// Half a device unit on either axis, in frame pixels: how far the centre-of-unit
    /// convention puts the extreme values inside the edges.
    static let tolerance = 800.0 / 4096

    /// The frame corner (0 or 1 per axis) each physical panel corner appears at, for a
    /// picture turned clockwise by `rotation`.
    static func expectedCorner(_ rotation: Rotation, _ corner: Point) -> Point {
        switch rotation {
        case .none: corner
        case .clockwise90: Point(x: corner.y, y: 1 - corner.x)
        case .upsideDown: Point(x: 1 - corner.x, y: 1 - corner.y)
        case .clockwise270: Point(x: 1 - corner.y, y: corner.x)
        }
    }

    @Test("the device's corners land on the right corners of a non-square frame", arguments: Rotation.allCases)
    func corners(rotation: Rotation) throws {
        let frame = rotation.logicalSize(physical: Self.physical)
        let mapper = try CoordinateMapper(x: Self.x, y: Self.y, rotation: rotation, frame: frame)
        let corners: [(Int32, Int32, Point)] = [
            (0, 100, Point(x: 0, y: 0)), (4095, 100, Point(x: 1, y: 0)),
            (0, 2147, Point(x: 0, y: 1)), (4095, 2147, Point(x: 1, y: 1)),
        ]
        for (rawX, rawY, corner) in corners {
            let p = mapper.point(x: rawX, y: rawY)
            let want = Self.expectedCorner(rotation, corner)
            #expect(abs(p.x - want.x * frame.width) < 1 && abs(p.y - want.y * frame.height) < 1, "\(rawX),\(rawY) -> \(p)")
            #expect(mapper.isInside(p))
        }
        let centre = mapper.point(x: 2047, y: 1123)
        #expect(abs(centre.x - frame.width / 2) < 1 && abs(centre.y - frame.height / 2) < 1)
    }

    @Test("extreme values sit half a unit inside the edges, the same on every side")
    func symmetric() throws {
        let frame = Size(width: 4096, height: 2048)
        let mapper = try CoordinateMapper(x: Self.x, y: Self.y, frame: frame)
        #expect(mapper.point(x: 0, y: 100) == Point(x: 0.5, y: 0.5))
        #expect(mapper.point(x: 4095, y: 2147) == Point(x: 4095.5, y: 2047.5))
        #expect(!mapper.isInside(mapper.point(x: 4096, y: 100)))
        #expect(!mapper.isInside(mapper.point(x: -1, y: 100)))
    }

    /// libinput's documented matrices (doc/user/absolute-axes.rst): device corner -> where
    /// the matrix sends it, in normalised units.
    @Test(
        "libinput's documented calibration matrices turn the touch as documented",
        arguments: [
            ("0 -1 1 1 0 0", [Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 0)]),  // 90°
            ("-1 0 1 0 -1 1", [Point(x: 1, y: 1), Point(x: 0, y: 1), Point(x: 1, y: 0)]),  // 180°
            ("0 1 0 -1 0 1", [Point(x: 0, y: 1), Point(x: 0, y: 0), Point(x: 1, y: 1)]),  // 270°
            ("0.5 0 0.25 0 2 -0.5", [Point(x: 0.25, y: -0.5), Point(x: 0.75, y: -0.5), Point(x: 0.25, y: 1.5)]),
        ])
    func libinputMatrices(matrix: String, want: [Point]) throws {
        let frame = Size(width: 1000, height: 600)
        let mapper = try CoordinateMapper(
            x: Self.x, y: Self.y, calibration: try CalibrationMatrix(parsing: matrix), frame: frame)
        // Top-left, top-right, bottom-left of the device.
        let raw: [(Int32, Int32)] = [(0, 100), (4095, 100), (0, 2147)]
        for ((rawX, rawY), w) in zip(raw, want) {
            let p = mapper.point(x: rawX, y: rawY)
            #expect(abs(p.x - w.x * frame.width) < 1 && abs(p.y - w.y * frame.height) < 1, "\(matrix): \(p)")
        }
    }

    @Test("libinput's 90° clockwise matrix turns touches as rotation=270 does, and its 270° as rotation=90")
    func libinputVersusRotation() throws {
        let frame = Size(width: 600, height: 600)
        for (matrix, rotation) in [("0 -1 1 1 0 0", Rotation.clockwise270), ("0 1 0 -1 0 1", .clockwise90)] {
            let calibrated = try CoordinateMapper(
                x: Self.x, y: Self.y, calibration: try CalibrationMatrix(parsing: matrix), frame: frame)
            let rotated = try CoordinateMapper(x: Self.x, y: Self.y, rotation: rotation, frame: frame)
            for (rawX, rawY) in [(Int32(0), Int32(100)), (4095, 100), (1000, 2000), (3000, 500)] {
                let a = calibrated.point(x: rawX, y: rawY), b = rotated.point(x: rawX, y: rawY)
                #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9)
            }
        }
    }

    @Test("raw steps become frame touch events")
    func touchEvents() throws {
        let mapper = try CoordinateMapper(
            x: AbsInfo(minimum: 0, maximum: 799), y: AbsInfo(minimum: 0, maximum: 479), frame: Self.physical)
        #expect(mapper.touchEvent(.down(x: 0, y: 479)) == .down(Point(x: 0.5, y: 479.5)))
        #expect(mapper.touchEvent(.move(x: 10, y: 20)) == .move(Point(x: 10.5, y: 20.5)))
        #expect(mapper.touchEvent(.up) == .up)
        #expect(mapper.touchEvent(.cancel(.eventsDropped)) == .cancel(.eventsDropped))
    }

    @Test("empty axis ranges and frames are refused")
    func refused() {
        #expect(throws: MapperError.emptyAxisRange(axis: "x", AbsInfo(minimum: 5, maximum: 5))) {
            try CoordinateMapper(x: AbsInfo(minimum: 5, maximum: 5), y: Self.y, frame: Self.physical)
        }
        #expect(throws: MapperError.emptyFrame(Size(width: 0, height: 480))) {
            try CoordinateMapper(x: Self.x, y: Self.y, frame: Size(width: 0, height: 480))
        }
    }
}

@Suite("CalibrationMatrix")
struct CalibrationMatrixTests {
    @Test("parses six numbers and applies them in normalised units")
    func parses() throws {
        let m = try CalibrationMatrix(parsing: "  1.5\t0 -0.25 0 1e0 0.1 ")
        #expect(m.apply(to: Point(x: 1, y: 1)) == Point(x: 1.25, y: 1.1))
        #expect(m.description == "1.5 0 -0.25 0 1 0.1")
        #expect(try CalibrationMatrix(parsing: "1 0 0 0 1 0") == .identity)
        #expect(CalibrationMatrix.identity.isIdentity)
    }

    @Test(
        "bad matrices are refused with a clear reason",
        arguments: [
            ("1 0 0 0 1", "found 5"),
            ("1 0 0 0 1 0 0 0 1", "found 9"),
            ("", "found 0"),
            ("1 0 x 0 1 0", "number 3 `x` is not a number"),
            ("1,0,0,0,1,0", "found 1"),
            ("1 0 nan 0 1 0", "number 3 `nan` is not finite"),
            ("1 0 0 0 inf 0", "number 5 `inf` is not finite"),
            ("0 0 0 0 0 0", "singular"),
            ("1 2 0 2 4 0", "singular"),
        ])
    func refused(text: String, problem: String) {
        do {
            _ = try CalibrationMatrix(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(problem), "\(error)")
        }
    }

    @Test("built from values, the same checks apply")
    func values() {
        #expect(throws: CalibrationError.wrongCount(2, text: nil)) { try CalibrationMatrix(values: [1, 0]) }
        #expect(throws: CalibrationError.self) { try CalibrationMatrix(a: 1, b: 0, c: .infinity, d: 0, e: 1, f: 0) }
    }
}
