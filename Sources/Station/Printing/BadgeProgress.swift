/// A badge's way to the attendee's hands, as the attendee panel and the headless `print_state`
/// line show it.
public struct BadgeProgress: Sendable, Equatable {
    /// What the attendee needs to know.
    public enum Stage: String, Sendable, Equatable {
        /// Waiting for its turn or on its way to the printer.
        case queued
        case printing
        /// Out of the printer, confirmed.
        case printed
        /// Not printed here (printer fault, held too long, unconfirmed): staff hand it out.
        case atDesk = "at_desk"
        /// Withdrawn by the operator.
        case canceled
    }

    public var jobID: Int64
    public var guestID: String
    public var stage: Stage
    /// The print queue's own state name (`queued`, `held`, `submitted`, `printed`, …).
    public var state: String
    /// Why, for the operator (never shown to the attendee).
    public var reason: String?
    /// The attendee's words ("Your badge is printing", "Please collect your badge at the desk").
    public var attendeeWords: String

    public init(jobID: Int64, guestID: String, stage: Stage, state: String, reason: String? = nil, attendeeWords: String) {
        self.jobID = jobID
        self.guestID = guestID
        self.stage = stage
        self.state = state
        self.reason = reason
        self.attendeeWords = attendeeWords
    }
}
