import CheckInCore

/// The sign-out screen's choice: what happens to changes the hub has not received yet.
///
/// Nothing a barcode scanner types can confirm it: the choice moves with ←/→ and is confirmed
/// with F8 (the key that opened the screen); a discard also needs the number of pending changes
/// typed back, so dropping check-ins always takes a deliberate person.
public struct SignOutPrompt: Sendable, Equatable {
    public private(set) var choice: PendingChangesChoice = .wait
    public private(set) var typedCount = ""
    public let pending: Int

    public init(pending: Int) { self.pending = pending }

    public enum Outcome: Sendable, Equatable {
        case stay
        case cancel
        case confirm(PendingChangesChoice)
    }

    /// Whether F8 would confirm now (a discard needs the count typed back).
    public var canConfirm: Bool { choice != .discard || typedCount == String(pending) }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .left, .backTab:
            move(-1)
        case .right, .tab:
            move(1)
        case .character(let digit) where digit.isASCII && digit.isNumber && choice == .discard:
            if typedCount.count < 9 { typedCount.append(digit) }
        case .backspace:
            if !typedCount.isEmpty { typedCount.removeLast() }
        case .escape:
            return .cancel
        case .function(8):
            return canConfirm ? .confirm(choice) : .stay
        default:
            break
        }
        return .stay
    }

    private mutating func move(_ step: Int) {
        let all = PendingChangesChoice.allCases
        let index = all.firstIndex(of: choice) ?? 0
        choice = all[(index + step + all.count) % all.count]
        typedCount = ""
    }
}
