import GridlockCore

/// The first two rows of a 3x3 affine matrix, with LIBINPUT_CALIBRATION_MATRIX semantics:
/// it acts on touch coordinates normalised to 0...1 across the device's axis ranges,
/// so `c` and `f` shift by whole device widths and heights:
///
///     x' = a*x + b*y + c
///     y' = d*x + e*y + f
///
/// A udev hwdb or rule line written for libinput can be copied into the config as is.
public struct CalibrationMatrix: Hashable, Sendable, CustomStringConvertible {
    public let a: Double, b: Double, c: Double
    public let d: Double, e: Double, f: Double

    public static let identity = CalibrationMatrix(unchecked: [1, 0, 0, 0, 1, 0])

    /// No entry larger: it would move a touch a thousand panel widths; no real mounting does.
    public static let largestEntry = 1_000.0
    /// A smaller determinant shrinks the whole panel to under a millionth of the screen.
    public static let smallestDeterminant = 1e-6

    /// Refuses non-finite or huge entries and a singular or nearly singular linear part,
    /// which would put every touch on one line or point: always a typing mistake, never a
    /// calibration.
    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) throws(CalibrationError) {
        try self.init(values: [a, b, c, d, e, f])
    }

    public init(values: [Double]) throws(CalibrationError) {
        guard values.count == 6 else { throw .wrongCount(values.count, text: nil) }
        for (index, value) in values.enumerated() {
            guard value.isFinite else { throw .notFinite(String(value), position: index + 1) }
            guard abs(value) <= Self.largestEntry else { throw .tooLarge(String(value), position: index + 1) }
        }
        self.init(unchecked: values)
        guard abs(a * e - b * d) >= Self.smallestDeterminant else { throw .singular(description) }
    }

    /// Six numbers separated by blanks, `a b c d e f`, as in LIBINPUT_CALIBRATION_MATRIX.
    public init(parsing text: String) throws(CalibrationError) {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard tokens.count == 6 else { throw .wrongCount(tokens.count, text: text) }
        var values: [Double] = []
        for (index, token) in tokens.enumerated() {
            guard let value = Double(token) else { throw .notANumber(String(token), position: index + 1) }
            guard value.isFinite else { throw .notFinite(String(token), position: index + 1) }
            values.append(value)
        }
        try self.init(values: values)
    }

    private init(unchecked v: [Double]) {
        (a, b, c, d, e, f) = (v[0], v[1], v[2], v[3], v[4], v[5])
    }

    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    public var isIdentity: Bool { self == .identity }

    public var description: String {
        // A named function with its types, not a closure: Swift 6.0 gives up type-checking the closure.
        func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        return [a, b, c, d, e, f].map(text).joined(separator: " ")
    }
}

public enum CalibrationError: Error, Hashable, CustomStringConvertible {
    case wrongCount(Int, text: String?)
    case notANumber(String, position: Int)
    case notFinite(String, position: Int)
    case tooLarge(String, position: Int)
    case singular(String)

    public var description: String {
        switch self {
        case .wrongCount(let count, let text):
            "a calibration matrix is six numbers `a b c d e f`, found \(count)"
                + (text.map { " in \"\($0)\"" } ?? "")
        case .notANumber(let token, let position):
            "calibration number \(position) `\(token)` is not a number"
        case .notFinite(let token, let position):
            "calibration number \(position) `\(token)` is not finite"
        case .tooLarge(let token, let position):
            "calibration number \(position) `\(token)` is beyond ±\(Int(CalibrationMatrix.largestEntry)): it would move a touch that many panel widths"
        case .singular(let matrix):
            "calibration matrix `\(matrix)` is singular or nearly so (|a*e - b*d| < \(CalibrationMatrix.smallestDeterminant)): every touch would land on one line or point"
        }
    }
}
