/// The sections and keys the loader knows. Keys are enums so that the switch applying them is
/// checked for completeness by the compiler, and the lists for "did you mean" cannot drift.
enum ConfigSection: String, CaseIterable {
    case display, touch, grid, theme, feedback, lockout, security, action

    /// `[pattern NAME]`, the only section that takes a name.
    static let patternPrefix = "pattern"

    static var allNames: [String] { allCases.map(\.rawValue) + [patternPrefix] }
}

enum DisplayKey: String, CaseIterable {
    case backend, device, connector, mode, rotation, size
    case outputDir = "output-dir"
    case blankAfter = "blank-after"
}

enum TouchKey: String, CaseIterable {
    case backend, device, calibration, grab
    case stuckTouchMs = "stuck-touch-ms"
}

enum GridKey: String, CaseIterable {
    case rows, columns, size
    case hitRadius = "hit-radius"
    case minNodes = "min-nodes"
    case showPath = "show-path"
}

enum ThemeKey: String, CaseIterable {
    case background, node, selected, error, success, text, font
    case prompt, wrong, verifying
    case tooShort = "too-short"
    case lockedOut = "locked-out"
    /// `success=` is the colour; the message needs its own name.
    case successText = "success-text"
    case enrollDraw = "enroll-draw"
    case enrollConfirm = "enroll-confirm"
    case enrollMismatch = "enroll-mismatch"
    case enrollSaved = "enroll-saved"
    case calibrate
}

enum FeedbackKey: String, CaseIterable {
    case errorMs = "error-ms"
    case successMs = "success-ms"
}

enum LockoutKey: String, CaseIterable {
    case schedule
    case stateFile = "state-file"
}

enum SecurityKey: String, CaseIterable {
    case argon2Ops = "argon2-ops"
    case argon2Mem = "argon2-mem"
}

enum ActionKey: String, CaseIterable {
    case timeout, mode
}

enum PatternKey: String, CaseIterable {
    case hash, exec, duress
    case duressExec = "duress-exec"
}

/// Ranges of the numeric keys, in one place for the loader and the docs' tests.
enum ConfigLimits {
    static let blankAfterSeconds = 0...86_400
    static let stuckTouchMs = 100...600_000
    static let feedbackMs = 0...60_000
    static let actionTimeoutSeconds = 0...86_400
    /// libsodium's bounds for argon2id: at least 1 pass and 8 KiB.
    static let argon2Ops = 1...4_294_967_295
    static let argon2MemKiB = 8...4_294_967_295
    static let gridDimensions = 2...8
}
