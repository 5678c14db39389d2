import CheckInCore
import OperatorConsole

/// What was presented at the station: a code (camera, scanner, keyboard, search) or a walk-in.
public struct Presentation: Sendable, Equatable {
    public enum Input: Sendable, Equatable {
        case code(String)
        case walkIn(WalkInDraft)
    }
    public var input: Input
    public var source: CheckInSource
    public var at: Timestamp

    public init(_ input: Input, source: CheckInSource, at: Timestamp) {
        self.input = input
        self.source = source
        self.at = at
    }
}

/// The recorded result of a presentation, reduced to what the flow needs.
public struct RecordedOutcome: Sendable, Equatable {
    public var decision: Decision
    public var badge: BadgeContent?
    public init(decision: Decision, badge: BadgeContent?) {
        self.decision = decision
        self.badge = badge
    }
}

/// What the attendee and the operator are told at the end of one presentation.
public struct Feedback: Sendable, Equatable {
    public var presentation: Presentation
    public var outcome: RecordedOutcome?
    public var badge: BadgeOutcome?
    /// Recording failed (disk full, storage error): nothing was recorded.
    public var failure: String?

    public init(presentation: Presentation, outcome: RecordedOutcome?, badge: BadgeOutcome?, failure: String?) {
        self.presentation = presentation
        self.outcome = outcome
        self.badge = badge
        self.failure = failure
    }
}

/// The decide → record → badge → feedback flow as a value: each event returns the actions
/// the runtime must perform, and the runtime reports their results back. Presentations that
/// arrive while one is in progress wait their turn, in order; a camera or scanner re-reading
/// the same code within ``repeatWindowMilliseconds`` is ignored (the attendee is still
/// holding the ticket up), while a typed repeat is always taken.
public struct CheckInFlow: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case ready
        case recording(Presentation)
        case printing(Presentation, RecordedOutcome)
    }

    public enum Action: Sendable, Equatable {
        /// Decide and record durably (one transaction).
        case record(Presentation)
        /// Print this badge (after the commit: nothing after it can lose the check-in).
        case printBadge(BadgeContent)
        /// Show and announce the result.
        case feedback(Feedback)
        /// A repeated read of the same code, dropped.
        case ignoreRepeat(Presentation)
    }

    public private(set) var phase: Phase = .ready
    public private(set) var waiting: [Presentation] = []
    public let policy: PrintPolicy
    public let repeatWindowMilliseconds: Int64
    /// The last device read per code, for repeat suppression.
    private var lastRead: [String: Timestamp] = [:]

    public init(policy: PrintPolicy = .onAdmission, repeatWindowMilliseconds: Int64 = 3_000) {
        self.policy = policy
        self.repeatWindowMilliseconds = repeatWindowMilliseconds
    }

    /// A code or walk-in was presented.
    public mutating func present(_ presentation: Presentation) -> [Action] {
        if case .code(let code) = presentation.input, presentation.source == .camera || presentation.source == .scanner {
            let key = code.uppercased()
            if let last = lastRead[key], presentation.at.milliseconds - last.milliseconds < repeatWindowMilliseconds,
               presentation.at >= last {
                lastRead[key] = presentation.at
                return [.ignoreRepeat(presentation)]
            }
            lastRead[key] = presentation.at
            if lastRead.count > 256 { lastRead = lastRead.filter { presentation.at.milliseconds - $0.value.milliseconds < repeatWindowMilliseconds } }
        }
        guard phase == .ready else {
            waiting.append(presentation)
            return []
        }
        phase = .recording(presentation)
        return [.record(presentation)]
    }

    /// The store decided and committed.
    public mutating func recorded(_ outcome: RecordedOutcome) -> [Action] {
        guard case .recording(let presentation) = phase else { return [] }
        if let badge = outcome.badge, shouldPrint(outcome, presentation: presentation) {
            phase = .printing(presentation, outcome)
            return [.printBadge(badge)]
        }
        return finish(Feedback(presentation: presentation, outcome: outcome, badge: nil, failure: nil))
    }

    /// Recording failed: nothing was written; say so and move on.
    public mutating func recordFailed(_ message: String) -> [Action] {
        guard case .recording(let presentation) = phase else { return [] }
        return finish(Feedback(presentation: presentation, outcome: nil, badge: nil, failure: message))
    }

    /// The badge job ended (or was handed to the spooler).
    public mutating func printed(_ badge: BadgeOutcome) -> [Action] {
        guard case .printing(let presentation, let outcome) = phase else { return [] }
        return finish(Feedback(presentation: presentation, outcome: outcome, badge: badge, failure: nil))
    }

    private func shouldPrint(_ outcome: RecordedOutcome, presentation: Presentation) -> Bool {
        guard outcome.decision == .admitted else { return false }
        let walkIn = if case .walkIn = presentation.input { true } else { false }
        return policy.printsAutomatically(walkIn: walkIn, alreadyPrinted: false)
    }

    private mutating func finish(_ feedback: Feedback) -> [Action] {
        phase = .ready
        var actions: [Action] = [.feedback(feedback)]
        if !waiting.isEmpty {
            let next = waiting.removeFirst()
            phase = .recording(next)
            actions.append(.record(next))
        }
        return actions
    }
}
