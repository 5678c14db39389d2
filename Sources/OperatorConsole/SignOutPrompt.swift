import Foundation
import CheckInCore

/// The sign-out screen's choice: what happens to changes the hub has not received yet.
///
/// Signing out stops the door (the roster copy goes, signing in again needs a staff password),
/// so it is always confirmed, even with nothing pending. Nothing a barcode scanner types can
/// confirm it: the choice moves with ←/→ and is confirmed with F8 (the key that opened the
/// screen); a discard also needs the number of pending changes typed on the code line, so
/// dropping check-ins always takes a deliberate person.
public struct SignOutPrompt: Sendable, Equatable {
    public private(set) var choice: PendingChangesChoice = .wait
    public let pending: Int

    public init(pending: Int) { self.pending = pending }

    public enum Outcome: Sendable, Equatable {
        case stay
        case cancel
        case confirm(PendingChangesChoice)
    }

    /// Whether F8 would confirm with `typed` on the code line (a discard needs the count).
    public func canConfirm(typed: String) -> Bool {
        choice != .discard || typed.trimmingCharacters(in: .whitespaces) == String(pending)
    }

    /// Arrows, Tab, Esc and F8; `typed` is the code line (where a discard's count is typed).
    mutating func handle(_ key: Key, typed: String) -> Outcome {
        switch key {
        case .left, .backTab:
            move(-1)
        case .right, .tab:
            move(1)
        case .escape:
            return .cancel
        case .function(8):
            return canConfirm(typed: typed) ? .confirm(choice) : .stay
        default:
            break
        }
        return .stay
    }

    private mutating func move(_ step: Int) {
        // With nothing pending there is nothing to choose: waiting for no upload signs out now.
        guard pending > 0 else { return }
        let all = PendingChangesChoice.allCases
        let index = all.firstIndex(of: choice) ?? 0
        choice = all[(index + step + all.count) % all.count]
    }
}
