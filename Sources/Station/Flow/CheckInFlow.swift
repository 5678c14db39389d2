import CheckInCore

/// The decide → record → feedback flow as a value: each event returns the actions the runtime
/// must perform, and the runtime reports their results back.
///
/// Feedback comes right after the commit. Printing is not part of the flow: the badge job is a
/// row written in the check-in's own transaction, and the print queue works it in the
/// background, so a slow or unplugged printer never holds the line. Presentations that arrive
/// while one is being recorded wait their turn, in order; a camera or scanner re-reading the
/// same code within ``repeatWindowMilliseconds`` is ignored (the attendee is still holding the
/// ticket up), while a typed repeat is always taken.
public struct CheckInFlow: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case ready
        case recording(Presentation)
    }

    public enum Action: Sendable, Equatable {
        /// Decide and record durably (one transaction, badge job included).
        case record(Presentation)
        /// Show and announce the result.
        case feedback(Feedback)
        /// Something was committed that others must learn soon: the hub (upload now) and,
        /// with a badge job, the print queue.
        case committed(badgeJobID: Int64?)
        /// A repeated read of the same code, dropped.
        case ignoreRepeat(Presentation)
    }

    public private(set) var phase: Phase = .ready
    public private(set) var waiting: [Presentation] = []
    public let repeatWindowMilliseconds: Int64
    /// The last device read per code, for repeat suppression.
    private var lastRead: [String: Timestamp] = [:]

    public init(repeatWindowMilliseconds: Int64 = 3_000) {
        self.repeatWindowMilliseconds = repeatWindowMilliseconds
    }

    /// A code or walk-in was presented.
    public mutating func present(_ presentation: Presentation) -> [Action] {
        if case .code(let code) = presentation.input, presentation.source == .camera || presentation.source == .scanner {
            let key = code.uppercased()
            if let last = lastRead[key], presentation.at >= last, Self.elapsed(from: last, to: presentation.at) < repeatWindowMilliseconds {
                lastRead[key] = presentation.at
                return [.ignoreRepeat(presentation)]
            }
            lastRead[key] = presentation.at
            if lastRead.count > 256 {
                lastRead = lastRead.filter { Self.elapsed(from: $0.value, to: presentation.at) < repeatWindowMilliseconds }
            }
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
        var actions: [Action] = [.feedback(Feedback(presentation: presentation, outcome: outcome, failure: nil))]
        if outcome.recorded || outcome.badgeJobID != nil { actions.append(.committed(badgeJobID: outcome.badgeJobID)) }
        return actions + next()
    }

    /// Recording failed: nothing was written; say so and move on.
    public mutating func recordFailed(_ message: String) -> [Action] {
        guard case .recording(let presentation) = phase else { return [] }
        return [.feedback(Feedback(presentation: presentation, outcome: nil, failure: message))] + next()
    }

    /// Milliseconds from `start` to `end`, saturating (a device clock can say anything).
    static func elapsed(from start: Timestamp, to end: Timestamp) -> Int64 {
        let (difference, overflow) = end.milliseconds.subtractingReportingOverflow(start.milliseconds)
        return overflow ? (end >= start ? .max : .min) : difference
    }

    private mutating func next() -> [Action] {
        phase = .ready
        guard !waiting.isEmpty else { return [] }
        let next = waiting.removeFirst()
        phase = .recording(next)
        return [.record(next)]
    }
}
