/// What the attendee and the operator are told at the end of one presentation: at once after
/// the commit, never after the printer.
public struct Feedback: Sendable, Equatable {
    public var presentation: Presentation
    public var outcome: RecordedOutcome?
    /// Recording failed (disk full, storage error): nothing was recorded.
    public var failure: String?

    public init(presentation: Presentation, outcome: RecordedOutcome?, failure: String?) {
        self.presentation = presentation
        self.outcome = outcome
        self.failure = failure
    }
}
