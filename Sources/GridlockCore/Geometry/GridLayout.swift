/// The shape of a lock grid: rows x columns nodes, numbered 0 ..< count row by row.
public struct GridShape: Hashable, Sendable, CustomStringConvertible {
    public static let allowedDimensions = 2...8
    public static let standard = GridShape(uncheckedRows: 3, columns: 3)

    public let rows: Int
    public let columns: Int

    public init(rows: Int, columns: Int) throws(GridError) {
        guard Self.allowedDimensions.contains(rows) else { throw .rowsOutOfRange(rows) }
        guard Self.allowedDimensions.contains(columns) else { throw .columnsOutOfRange(columns) }
        self.rows = rows
        self.columns = columns
    }

    private init(uncheckedRows rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    public var nodeCount: Int { rows * columns }
    public func row(of node: Int) -> Int { node / columns }
    public func column(of node: Int) -> Int { node % columns }
    public func node(row: Int, column: Int) -> Int { row * columns + column }

    /// `3x3`: the prefix of the hashed message, so a hash never matches on a grid of another shape.
    public var description: String { "\(rows)x\(columns)" }
}

public enum GridError: Error, Equatable, CustomStringConvertible {
    case rowsOutOfRange(Int)
    case columnsOutOfRange(Int)
    case sizeOutOfRange(Double)
    case hitRadiusOutOfRange(Double)

    public var description: String {
        switch self {
        case .rowsOutOfRange(let n): "rows must be between 2 and 8, not \(n)"
        case .columnsOutOfRange(let n): "columns must be between 2 and 8, not \(n)"
        case .sizeOutOfRange(let v): "grid size must be a fraction of the screen between 0.1 and 1.0, not \(v)"
        case .hitRadiusOutOfRange(let v): "hit-radius must be between 0.2 and 1.0 (a fraction of half a cell), not \(v)"
        }
    }
}

/// Where the grid's nodes are on a frame: a square of side `sizeFraction` x min(width, height)
/// centred in the frame, one cell per node, nodes at cell centres.
public struct GridLayout: Hashable, Sendable {
    public static let allowedSizeFraction = 0.1...1.0
    /// Android clamps its hit factor to this range; smaller makes nodes hard to hit,
    /// larger makes neighbouring circles overlap.
    public static let allowedHitRadiusFraction = 0.2...1.0

    public let shape: GridShape
    public let frame: Rect
    /// The square holding every cell.
    public let bounds: Rect
    public let cellWidth: Double
    public let cellHeight: Double
    /// Distance from a node's centre within which the finger selects it.
    public let hitRadius: Double

    public init(
        shape: GridShape = .standard,
        frame: Rect,
        sizeFraction: Double = 0.8,
        hitRadiusFraction: Double = 0.6
    ) throws(GridError) {
        guard Self.allowedSizeFraction.contains(sizeFraction) else { throw .sizeOutOfRange(sizeFraction) }
        guard Self.allowedHitRadiusFraction.contains(hitRadiusFraction) else {
            throw .hitRadiusOutOfRange(hitRadiusFraction)
        }
        self.shape = shape
        self.frame = frame
        let side = sizeFraction * min(frame.width, frame.height)
        bounds = Rect(x: frame.center.x - side / 2, y: frame.center.y - side / 2, width: side, height: side)
        cellWidth = side / Double(shape.columns)
        cellHeight = side / Double(shape.rows)
        hitRadius = hitRadiusFraction * min(cellWidth, cellHeight) / 2
    }

    /// The smaller cell dimension: the unit every drawn size is a fraction of.
    public var cell: Double { min(cellWidth, cellHeight) }

    public func center(of node: Int) -> Point {
        Point(
            x: bounds.minX + (Double(shape.column(of: node)) + 0.5) * cellWidth,
            y: bounds.minY + (Double(shape.row(of: node)) + 0.5) * cellHeight
        )
    }

    /// The node whose hit circle contains `point`, if any.
    public func node(at point: Point) -> Int? {
        let column = Int(((point.x - bounds.minX) / cellWidth).rounded(.down))
        let row = Int(((point.y - bounds.minY) / cellHeight).rounded(.down))
        guard (0..<shape.rows).contains(row), (0..<shape.columns).contains(column) else { return nil }
        let node = shape.node(row: row, column: column)
        return center(of: node).distance(to: point) <= hitRadius ? node : nil
    }
}
