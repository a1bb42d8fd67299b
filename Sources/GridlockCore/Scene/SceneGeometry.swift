/// The sizes a theme gives what is drawn, as fractions of a cell. The renderer and the
/// damage computation both take them from here, so damage covers what a theme draws.
public struct SceneGeometry: Hashable, Sendable {
    /// The drawn diameter of a node (its ring, or its image's longer side).
    public var nodeSize: Double
    /// The path's width.
    public var lineWidth: Double

    public init(nodeSize: Double, lineWidth: Double) {
        self.nodeSize = nodeSize
        self.lineWidth = lineWidth
    }

    /// The look gridlock had before themes could size things.
    public static let standard = SceneGeometry(nodeSize: 0.24, lineWidth: 0.06)
    public static let allowedNodeSize = 0.05...1.0
    public static let allowedLineWidth = 0.01...0.5
}

/// How a background image is placed on a frame of another size.
public enum BackgroundFit: String, Hashable, Sendable, CaseIterable {
    /// Scaled to cover the whole frame, proportions kept; what overhangs is cut off.
    case fill
    /// Scaled to fit inside the frame, proportions kept; the background colour shows beside it.
    case fit
    /// Scaled to the frame's width and height, proportions not kept.
    case stretch
    /// At its own size, repeated from the top-left corner.
    case tile
    /// At its own size, in the middle; cut off where larger than the frame.
    case centre

    /// Where the image lands (one copy; `tile` repeats it to the right and down), in whole pixels.
    public func placement(image: Size, frame: Rect) -> Rect {
        let width: Double, height: Double
        switch self {
        case .fill, .fit:
            let across = frame.width / image.width, down = frame.height / image.height
            let scale = self == .fill ? max(across, down) : min(across, down)
            width = (image.width * scale).rounded()
            height = (image.height * scale).rounded()
        case .stretch:
            return frame
        case .tile:
            return Rect(x: frame.minX, y: frame.minY, width: image.width, height: image.height)
        case .centre:
            width = image.width
            height = image.height
        }
        return Rect(
            x: (frame.minX + (frame.width - width) / 2).rounded(.down),
            y: (frame.minY + (frame.height - height) / 2).rounded(.down),
            width: width, height: height)
    }
}

extension Size {
    /// Scaled, proportions kept, so that the longer side is `side` (whole pixels, at least one).
    public func fitted(inSquare side: Double) -> Size {
        let scale = side / max(width, height)
        return Size(width: max(1, (width * scale).rounded()), height: max(1, (height * scale).rounded()))
    }
}
