/// Who waits after wrong passwords (security review F4): failures are counted per account *and*
/// client, so an attacker's guesses hold back the attacker, not the account's owner elsewhere.
///
/// - Per (account, client) pair (``pair``): the first few wrong passwords are free, then each
///   attempt waits, doubling (``SignInThrottle``). Whoever guesses waits, right password or not.
/// - Per account, over clients that never signed in to it (``account``): guesses spread over
///   many addresses slow every *new* client down, but not one that signed in before, recognised
///   by its device cookie (``DeviceProof``, browsers) or its address's sign-in and refresh history
///   (``RecognisedClients``, stations).
/// - Per client address over all accounts (``client``; an IPv6 client by its /64): one address
///   guessing many accounts waits. A recognised client is not held back by others there either.
///
/// A recognised client's own wrong passwords count on its own pair (keyed by its device), never
/// on the account's or the address's counts.
package final class SignInLockout: Sendable {
    /// One sign-in attempt as the lockout sees it.
    struct Attempt: Sendable {
        var email: String
        /// ``ClientAddress/key(_:)`` of the caller.
        var client: String
        /// How the caller is known to have signed in to this account before: `device:…` or its
        /// address key; `nil` for a client never seen (or an e-mail of no account).
        var recognisedAs: String?

        /// The pair's key: the account and who is trying.
        var pairKey: String { email.lowercased() + "\u{0}" + (recognisedAs ?? client) }
    }

    package let pair: SignInThrottle
    let account: SignInThrottle
    let client: SignInThrottle
    let recognised = RecognisedClients()
    package let guessed = GuessedAccounts()

    init(pair: SignInThrottle.Limits, account: SignInThrottle.Limits, client: SignInThrottle.Limits) {
        self.pair = SignInThrottle(limits: pair)
        self.account = SignInThrottle(limits: account)
        self.client = SignInThrottle(limits: client)
    }

    /// Whole seconds `attempt` must wait, or `nil` when it may try now.
    func secondsToWait(_ attempt: Attempt) -> Int? {
        if let wait = pair.secondsToWait(attempt.pairKey) { return wait }
        guard attempt.recognisedAs == nil else { return nil }
        return account.secondsToWait(attempt.email) ?? client.secondsToWait(attempt.client)
    }

    func failed(_ attempt: Attempt) {
        pair.failed(attempt.pairKey)
        guard attempt.recognisedAs == nil else { return }
        account.failed(attempt.email)
        client.failed(attempt.client)
    }

    /// The right password: the pair starts again, and this client is recognised from now on.
    /// The account's count does not: the owner signing in does not stop others guessing (it is
    /// forgotten an hour after their last wrong password).
    func succeeded(_ attempt: Attempt, staffID: String) {
        pair.succeeded(attempt.pairKey)
        recognised.remember(staffID: staffID, client: attempt.client)
    }
}
