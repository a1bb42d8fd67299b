/// An ordered list of distinct grid nodes (0-based, row-major).
///
/// The text form `1-2-3-6-9` (1-based) is for tools, tests and the hashed message only;
/// it is never logged for a real attempt (`description` deliberately hides it).
public struct Pattern: Hashable, Sendable, CustomStringConvertible {
    public let nodes: [Int]

    /// Nodes must be distinct and inside `shape`; use `init(text:shape:)` for untrusted input.
    public init(nodes: [Int], shape: GridShape) throws(PatternError) {
        guard !nodes.isEmpty else { throw .empty }
        var seen: UInt64 = 0
        for node in nodes {
            guard (0..<shape.nodeCount).contains(node) else { throw .outOfRange(node + 1, max: shape.nodeCount) }
            let bit: UInt64 = 1 << UInt64(node)
            guard seen & bit == 0 else { throw .repeated(node + 1) }
            seen |= bit
        }
        self.nodes = nodes
    }

    /// Parses `1-2-3-6-9`: 1-based node numbers, row by row, separated by `-`.
    public init(text: String, shape: GridShape) throws(PatternError) {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw .empty }
        var nodes: [Int] = []
        for field in trimmed.split(separator: "-", omittingEmptySubsequences: false) {
            guard let number = Int(field), field.allSatisfy(\.isASCIIDigit) else {
                throw .notANumber(String(field))
            }
            guard number >= 1 else { throw .zero }
            nodes.append(number - 1)
        }
        try self.init(nodes: nodes, shape: shape)
    }

    public var count: Int { nodes.count }

    /// `1-2-3-6-9`. Secret: only for enrollment tools and the hashed message.
    public var text: String { nodes.map { String($0 + 1) }.joined(separator: "-") }

    /// The UTF-8 message that is hashed: `3x3:1-2-3-6-9`.
    public func hashMessage(shape: GridShape) -> String { "\(shape):\(text)" }

    /// Never the nodes: string interpolation into a log line must not leak the pattern.
    public var description: String { "Pattern(\(nodes.count) nodes)" }
}

public enum PatternError: Error, Equatable, CustomStringConvertible {
    case empty
    case notANumber(String)
    case zero
    case outOfRange(Int, max: Int)
    case repeated(Int)

    public var description: String {
        switch self {
        case .empty: "the pattern is empty; write node numbers joined by '-', e.g. 1-2-3-6-9"
        case .notANumber(let field):
            field.isEmpty ? "empty node number (two '-' in a row, or one at an end)" : "'\(field)' is not a node number"
        case .zero: "node numbers start at 1, not 0"
        case .outOfRange(let n, let max): "node \(n) does not exist on this grid (nodes are 1 to \(max))"
        case .repeated(let n): "node \(n) appears twice; a node can be used once"
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return self[start...end]
    }
}
