import CheckInCore
import HubAPI
import HubServer
import Logging

/// Staff administration that grants something (a new account, an event, an enabled account, a
/// new password, one's own included) asks for the organizer's own password again (security
/// review F6; ASVS 2.1.6 for one's own): a page that lost its integrity, or a session cookie
/// left in a browser, is then not enough to make an account.
///
/// Checked like a sign-in: through the hub's hashing gate, and a wrong password counts against
/// the account as a failed sign-in does (``SignInThrottle``), so a stolen session cannot guess.
struct PasswordConfirmation {
    /// The form field the organizer types their password in.
    static let field = "current_password"

    enum Outcome: Equatable {
        case confirmed
        case missing
        case wrong
        case waiting(seconds: Int)

        /// What the page says for a refusal.
        var words: String? {
            switch self {
            case .confirmed: nil
            case .missing: "Type your own password to confirm this change: staff changes ask for it again."
            case .wrong: "That is not your password. Type the password you sign in with to confirm this change."
            case .waiting(let seconds): "Too many wrong passwords for your account: wait \(seconds) s, then type your own password again."
            }
        }
    }

    let staff: any StaffRepository
    let hashing: HashingGate
    let lockout: SignInLockout
    let logger: Logger

    /// Whether `typed` is the password of `caller`'s account.
    func check(_ typed: String?, of caller: AuthenticatedSession) async throws -> Outcome {
        guard let typed, !typed.isEmpty else { return .missing }
        let email = caller.staff.email
        // Counted on the account's own pair with this signed-in session's confirmations: wrong
        // confirmations slow this organizer's staff changes, never others signing in (F4).
        let key = email.lowercased() + "\u{0}confirm:" + caller.staff.id
        if let wait = lockout.pair.secondsToWait(key) { return .waiting(seconds: wait) }
        let stored = try await staff.staff(email: email)?.passwordHash ?? PasswordHasher.decoy
        guard try await hashing.run(in: .administration, { PasswordHasher.verify(typed, against: stored) }) else {
            lockout.pair.failed(key)
            logger.notice("staff change refused: wrong password typed to confirm it", metadata: ["staff": "\(caller.staff.id)"])
            return .wrong
        }
        return .confirmed
    }
}
