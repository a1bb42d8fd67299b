/// How the picture is turned on the panel, clockwise, as `rotation=` in the config says.
///
/// The renderer draws in the *logical* frame (what a person standing in front of the panel
/// sees as upright); the display copies it to the *physical* scan-out turned by this much;
/// touch coordinates arrive in physical terms and are turned back by the same value,
/// so one setting turns picture and touch together.
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }

    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The logical frame for a scan-out of `physical` size.
    public func logicalSize(physical: Size) -> Size {
        swapsAxes ? Size(width: physical.height, height: physical.width) : physical
    }

    /// A point on the unturned panel, normalised to 0...1 on both axes, as a normalised
    /// point of the logical frame.
    public func logical(fromPhysical p: Point) -> Point {
        switch self {
        case .none: p
        case .clockwise90: Point(x: p.y, y: 1 - p.x)
        case .upsideDown: Point(x: 1 - p.x, y: 1 - p.y)
        case .clockwise270: Point(x: 1 - p.y, y: p.x)
        }
    }

    /// The inverse of `logical(fromPhysical:)`.
    public func physical(fromLogical p: Point) -> Point {
        switch self {
        case .none: p
        case .clockwise90: Point(x: 1 - p.y, y: p.x)
        case .upsideDown: Point(x: 1 - p.x, y: 1 - p.y)
        case .clockwise270: Point(x: p.y, y: 1 - p.x)
        }
    }

    /// Rotations compose by adding angles (a panel mounted upside down and a config asking for 90 degrees).
    public func followed(by other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360)!
    }
}
