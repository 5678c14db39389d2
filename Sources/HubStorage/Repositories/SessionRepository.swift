import CheckInCore
import HubAPI
import HubCore

/// Signed-in sessions (tokens stored only as hashes) and the stations they registered.
public protocol SessionRepository: Sendable {
    func createSession(_ session: NewSession) async throws
    /// The live session whose access token hashes to `accessHash`, or `nil`.
    func session(accessHash: String, now: Timestamp) async throws -> AuthenticatedSession?
    /// Rotates a refresh token (``RefreshRotation``): the session whose current refresh token
    /// hashes to `refreshHash` gets the new hashes, and so does the session whose *previous* one
    /// does, within `graceMilliseconds` of its last rotation. The previous token presented later
    /// revokes the session (someone copied it).
    func rotate(refreshHash: String, to tokens: NewTokens, now: Timestamp, graceMilliseconds: Int64) async throws -> AuthenticatedSession?
    /// Revokes a live session; `false` (and no `audit` entry) when there was none.
    func revokeSession(id: String, now: Timestamp, audit: OrganizerAction?) async throws -> Bool
    func sessions() async throws -> [SessionSummary]
    /// Binds a device id to the claiming session (``StationClaim/decide(existingSecretHash:claimSecretHash:)``);
    /// `.deviceTaken` when the id belongs to another station.
    func registerStation(_ claim: StationClaim) async throws -> StationClaim.Outcome
}

extension SessionRepository {
    /// A person signing themselves out: no organizer's action, so no entry in the organizer log.
    public func revokeSession(id: String, now: Timestamp) async throws -> Bool {
        try await revokeSession(id: id, now: now, audit: nil)
    }
}
