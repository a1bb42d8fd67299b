/// How a node is drawn.
public enum NodeLook: UInt8, Hashable, Sendable {
    case idle, selected, error, success
}

/// The line of text above the grid. The renderer turns it into words using the theme,
/// so translations live in the config, not in the core.
public enum Message: Hashable, Sendable {
    case none
    case prompt
    case verifying
    /// A wrong pattern: `failures` in a row so far, and how many more wrong ones are allowed
    /// before one starts a lockout (0: this one does; nil: none ever will).
    case wrong(failures: Int, remaining: Int?)
    /// Fewer than `minimum` nodes were connected.
    case tooShort(minimum: Int)
    /// Locked out; try again in this many seconds.
    case lockedOut(seconds: Int)
    /// Attempts cannot be recorded (the disk is full or read-only): none is checked.
    case cannotRecord
    /// A lock face cannot reach gridlockd (not running, or refusing this user): nothing is checked.
    case serviceUnavailable
    /// gridlockd did not check the stroke: another check, an action or a finger on the panel came first.
    case busy
    case success
    case enrollDraw
    case enrollConfirm
    case enrollMismatch
    case enrollSaved
    /// Calibration: touch the centre of the cross, `step` of `count`.
    case calibrate(step: Int, count: Int)
}

/// Everything the screen shows, as a value: the renderer draws a scene, and damage
/// is computed by comparing two scenes, so the core alone decides what changed.
public struct Scene: Hashable, Sendable {
    public var layout: GridLayout
    public var nodes: [NodeLook]
    /// Centres of the selected nodes in order; empty when the path is hidden.
    public var path: [Point]
    /// Where the line from the last selected node follows the finger, while drawing.
    public var finger: Point?
    /// The look of the path and the finger segment.
    public var pathLook: NodeLook
    public var message: Message
    /// Calibration: a cross to touch, drawn instead of the grid.
    public var target: Point?

    public init(
        layout: GridLayout,
        nodes: [NodeLook]? = nil,
        path: [Point] = [],
        finger: Point? = nil,
        pathLook: NodeLook = .selected,
        message: Message = .prompt,
        target: Point? = nil
    ) {
        self.layout = layout
        self.nodes = nodes ?? Array(repeating: .idle, count: layout.shape.nodeCount)
        self.path = path
        self.finger = finger
        self.pathLook = pathLook
        self.message = message
        self.target = target
    }

    /// Shows `nodes` (in order) in `look`, with the path through them and, while a finger
    /// draws, its segment from the last one. Nothing when `pathShown` is false: a hidden path
    /// shows onlookers no node at all.
    public mutating func show(_ nodes: [Int], look: NodeLook, finger: Point? = nil, pathShown: Bool) {
        guard pathShown else { return }
        for node in nodes { self.nodes[node] = look }
        path = nodes.map(layout.center(of:))
        self.finger = nodes.isEmpty ? nil : finger
        pathLook = look
    }

    /// With the standard look's sizes; `metrics(_:)` with the theme's.
    public var metrics: SceneMetrics { SceneMetrics(layout: layout) }

    public func metrics(_ geometry: SceneGeometry) -> SceneMetrics { SceneMetrics(layout: layout, geometry: geometry) }
}

/// Sizes of everything drawn, derived from the layout, shared by the renderer and the
/// damage computation so that a damaged rectangle always covers what is redrawn.
public struct SceneMetrics: Hashable, Sendable {
    /// Pixels of antialiasing blur beyond a shape's geometric edge.
    public static let antialiasMargin = 2.0

    public let ringRadius: Double
    public let ringWidth: Double
    public let dotRadius: Double
    public let pathWidth: Double
    /// The side of the square a node image is scaled to fit: the node's diameter, as the ring's.
    public let nodeImageSide: Double
    /// The band above the grid that holds the message line.
    public let messageBand: Rect
    public let fontSize: Double

    public init(layout: GridLayout, geometry: SceneGeometry = .standard) {
        let cell = layout.cell
        ringRadius = geometry.nodeSize / 2 * cell
        ringWidth = max(2, 0.02 * cell)
        dotRadius = 0.5 * ringRadius
        pathWidth = geometry.lineWidth * cell
        nodeImageSide = max(1, geometry.nodeSize * cell)
        let frame = layout.frame
        let top = layout.bounds.minY - frame.minY
        messageBand = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: top)
        fontSize = max(8, min(top * 0.45, cell * 0.22))
    }

    /// Everything a node's drawing can touch: its ring, or its image (a square of side
    /// `2 * ringRadius` placed on whole pixels, so at most half a pixel off centre).
    public func nodeBounds(center: Point) -> Rect {
        let r = ringRadius + ringWidth / 2 + Self.antialiasMargin
        return Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r)
    }

    /// Half the length of a calibration cross's arm, and its line width.
    public static let targetArm = 24.0
    public static let targetLineWidth = 2.0

    /// Everything a calibration cross's drawing can touch.
    public func targetBounds(center: Point) -> Rect {
        let r = Self.targetArm + Self.targetLineWidth + Self.antialiasMargin
        return Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r)
    }

    /// Everything a path segment's drawing can touch, round caps included.
    public func segmentBounds(_ a: Point, _ b: Point) -> Rect {
        Rect(enclosing: a, b).outset(by: pathWidth / 2 + Self.antialiasMargin)
    }
}
