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

    public var isWalkIn: Bool {
        if case .walkIn = input { true } else { false }
    }
}
