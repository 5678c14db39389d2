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
    /// Entering or leaving: the station's mode when the code arrived.
    public var direction: Direction
    /// Staff answered "admit anyway?" for this unpaid ticket (``OperatorConsole/UnpaidQuestion``).
    public var admitUnpaid: Bool
    /// Answers to the ticket's questions at the door, as typed (question id → answer): the
    /// console's form, or a headless caller's answer line.
    public var answers: [String: String]

    public init(_ input: Input, source: CheckInSource, at: Timestamp, direction: Direction = .entry, admitUnpaid: Bool = false,
                answers: [String: String] = [:]) {
        self.answers = answers
        self.input = input
        self.source = source
        self.at = at
        self.direction = direction
        self.admitUnpaid = admitUnpaid
    }

    public var isWalkIn: Bool {
        if case .walkIn = input { true } else { false }
    }
}
