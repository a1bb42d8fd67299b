import Testing
@testable import GridlockCore

@Suite struct GridLayoutTests {
    @Test("default layout is centred square of eight tenths of the short side") func defaultLayoutIsCentredSquareOfEightTenthsOfTheShortSide() {
        let grid = layout()
        #expect(grid.bounds == Rect(x: 208, y: 48, width: 384, height: 384))
        #expect(grid.cell == 128)
        #expect(grid.center(of: 0) == Point(x: 272, y: 112))
        #expect(grid.center(of: 4) == Point(x: 400, y: 240))
        #expect(grid.center(of: 8) == Point(x: 528, y: 368))
        #expect(grid.hitRadius == 0.6 * 64)
    }

    @Test("portrait frame uses the width") func portraitFrameUsesTheWidth() {
        let grid = layout(frame: Rect(x: 0, y: 0, width: 480, height: 800))
        #expect(grid.bounds.width == 384)
        #expect(grid.center(of: 4) == Point(x: 240, y: 400))
    }

    @Test("node lookup respects the hit radius") func nodeLookupRespectsTheHitRadius() {
        let grid = layout()
        let c = grid.center(of: 5)
        #expect(grid.node(at: c) == 5)
        #expect(grid.node(at: Point(x: c.x + grid.hitRadius - 0.01, y: c.y)) == 5)
        #expect(grid.node(at: Point(x: c.x + grid.hitRadius + 0.01, y: c.y)) == nil)
        #expect(grid.node(at: Point(x: 5, y: 5)) == nil)
    }

    @Test("rejects shapes and fractions outside the allowed ranges") func rejectsShapesAndFractionsOutsideTheAllowedRanges() {
        #expect(throws: GridError.rowsOutOfRange(1)) { try GridShape(rows: 1, columns: 3) }
        #expect(throws: GridError.columnsOutOfRange(9)) { try GridShape(rows: 3, columns: 9) }
        #expect(throws: GridError.hitRadiusOutOfRange(0.1)) { try GridLayout(frame: panel, hitRadiusFraction: 0.1) }
        #expect(throws: GridError.sizeOutOfRange(1.5)) { try GridLayout(frame: panel, sizeFraction: 1.5) }
    }

    @Test("rotation maps are pairwise inverse") func rotationMapsArePairwiseInverse() {
        let p = Point(x: 0.25, y: 0.125)
        for rotation in Rotation.allCases {
            #expect(rotation.physical(fromLogical: rotation.logical(fromPhysical: p)) == p)
        }
        // The picture turned clockwise: its top-left corner is at the panel's top-right.
        #expect(Rotation.clockwise90.physical(fromLogical: .zero) == Point(x: 1, y: 0))
        #expect(Rotation.clockwise270.physical(fromLogical: .zero) == Point(x: 0, y: 1))
        #expect(Rotation.clockwise90.followed(by: .upsideDown) == .clockwise270)
    }
}

@Suite struct PatternTests {
    let shape = GridShape.standard

    @Test("parses the text form") func parsesTheTextForm() throws {
        let pattern = try Pattern(text: "1-2-3-6-9", shape: shape)
        #expect(pattern.nodes == [0, 1, 2, 5, 8])
        #expect(pattern.text == "1-2-3-6-9")
        #expect(pattern.hashMessage(shape: shape) == "3x3:1-2-3-6-9")
        #expect(try Pattern(text: " 5 ", shape: shape).nodes == [4])
    }

    @Test("rejects bad text", arguments: [
        ("", PatternError.empty),
        ("0-1-2", .zero),
        ("1-2-1", .repeated(1)),
        ("1-2-10", .outOfRange(10, max: 9)),
        ("1--2", .notANumber("")),
        ("1-2-x", .notANumber("x")),
        ("1-+2", .notANumber("+2")),
    ])
    func rejectsBadText(text: String, error: PatternError) {
        #expect(throws: error) { try Pattern(text: text, shape: shape) }
    }

    @Test("never shows its nodes in interpolation") func neverShowsItsNodesInInterpolation() throws {
        let pattern = try Pattern(text: "1-2-3-6-9", shape: shape)
        #expect("\(pattern)" == "Pattern(5 nodes)")
    }

    @Test("errors explain themselves") func errorsExplainThemselves() {
        #expect(PatternError.zero.description.contains("start at 1"))
        #expect(PatternError.outOfRange(10, max: 9).description.contains("1 to 9"))
    }
}
