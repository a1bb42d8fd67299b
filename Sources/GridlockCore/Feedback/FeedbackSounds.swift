/// One step of a sound: a tone of `hertz` held for `duration`; 0 Hz is a rest.
public struct ToneStep: Hashable, Sendable, CustomStringConvertible {
    public var hertz: Int
    public var duration: Duration

    public init(hertz: Int, duration: Duration) {
        self.hertz = hertz
        self.duration = duration
    }

    /// Tone pitches a PC speaker and the piezo beepers drivers expose play; 0 is a rest.
    public static let allowedHertz = 20...20_000
    public static let allowedMilliseconds = 1...5_000
    /// A cue is a few notes, not a melody: it must end before the next one is likely.
    public static let mostSteps = 8

    /// `HZ:MS`, as the config writes it.
    public var description: String { "\(hertz):\(duration.nanoseconds / 1_000_000)" }
}

/// The moments the lock screen makes itself heard.
public enum FeedbackCue: String, Hashable, Sendable, CaseIterable {
    /// A finger reached one more node (several at once in a fast swipe: one tick).
    case nodeSelected
    /// A pattern was checked and refused (or an enrolment's two drawings differed).
    case wrongPattern
    /// A pattern was accepted (or an enrolment confirmed).
    case accepted
    /// Input is refused for a while: a lockout started, or was restored at start.
    case lockoutStarted

    /// The cue a report of the lock machine calls for, if any. Too short a stroke is not
    /// one: it is not an attempt, and its message says what to do.
    public static func forReport(_ report: LockReport) -> FeedbackCue? {
        switch report {
        case .rejected, .enrollmentMismatch: .wrongPattern
        case .accepted, .enrollmentConfirmed: .accepted
        case .lockout: .lockoutStarted
        case .tooShort, .lockoutEnded, .strokeCancelled, .enrollmentFirstDrawn, .enrollmentTooShort, .notRecorded: nil
        }
    }

    /// A tick when the selection grew; it shrinks only when a stroke ends or is cancelled.
    /// A lock face's cue: the verifier's answers, as the panel's own lock sounds them.
    public static func forFaceReport(_ report: FaceReport) -> FeedbackCue? {
        switch report {
        case .rejected, .enrollmentMismatch: .wrongPattern
        case .accepted, .enrollmentSent: .accepted
        case .lockedOut: .lockoutStarted
        case .calibrationTapped: .nodeSelected
        case .serviceAvailable, .serviceLost, .serviceSilent, .lockoutEnded, .notChecked, .tooShort, .strokeCancelled, .relocked,
             .panelHandedOver, .panelBack, .enrollmentStarted, .enrollmentFirstDrawn, .enrollmentTooShort, .enrollmentEnded,
             .calibrationStarted, .calibrationEnded: nil
        }
    }

    public static func forSelection(before: Int, after: Int) -> FeedbackCue? {
        after > before ? .nodeSelected : nil
    }
}

/// Which steps each cue plays; an empty list is silence (`off`).
public struct FeedbackSounds: Hashable, Sendable {
    public var tick: [ToneStep]
    public var wrong: [ToneStep]
    public var success: [ToneStep]
    public var lockout: [ToneStep]

    public init(tick: [ToneStep], wrong: [ToneStep], success: [ToneStep], lockout: [ToneStep]) {
        self.tick = tick
        self.wrong = wrong
        self.success = success
        self.lockout = lockout
    }

    /// A short high tick, a low buzz, a rising pair (C6 then G6), a long middle tone.
    public static let standard = FeedbackSounds(
        tick: [ToneStep(hertz: 2000, duration: .milliseconds(15))],
        wrong: [ToneStep(hertz: 220, duration: .milliseconds(350))],
        success: [ToneStep(hertz: 1047, duration: .milliseconds(90)), ToneStep(hertz: 1568, duration: .milliseconds(140))],
        lockout: [ToneStep(hertz: 440, duration: .milliseconds(1200))])

    public func steps(for cue: FeedbackCue) -> [ToneStep] {
        switch cue {
        case .nodeSelected: tick
        case .wrongPattern: wrong
        case .accepted: success
        case .lockoutStarted: lockout
        }
    }
}
