import CheckInCore

/// What a presented refresh token earns, decided once for both stores.
///
/// Each refresh shifts the session's current token into *previous* and issues a new current one.
/// The previous token is accepted again for a short grace period after that rotation and
/// answered like the current one (a fresh pair, the current shifting into previous): the answer
/// of a refresh can be lost on the network, and two processes of one station can refresh at the
/// same moment, and neither must sign the station out. After the grace period the previous token
/// can only be a copy: it ends the session (theft detection, as before the grace existed).
public enum RefreshRotation {
    public enum Verdict: Sendable, Equatable {
        /// Issue the new pair.
        case rotate
        /// A rotated-away token reused after the grace period: revoke the session.
        case revoke
        /// The session's refresh lifetime is over: refuse, change nothing.
        case refuse
    }

    /// - Parameters:
    ///   - presentedIsCurrent: the token is the session's current one (else its previous one).
    ///   - rotatedAt: when the session last rotated (`nil`: before the hub recorded it).
    public static func verdict(
        presentedIsCurrent: Bool, rotatedAt: Timestamp?, refreshExpires: Timestamp, now: Timestamp, graceMilliseconds: Int64
    ) -> Verdict {
        guard refreshExpires > now else { return .refuse }
        if presentedIsCurrent { return .rotate }
        // Saturating: a clock of another hub process may run slightly behind; a rotation "in the
        // future" counts as within the grace period.
        guard let rotatedAt, graceMilliseconds > 0, now.milliseconds(since: rotatedAt) <= graceMilliseconds else { return .revoke }
        return .rotate
    }
}
