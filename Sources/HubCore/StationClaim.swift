import CheckInCore

/// A session's claim on a device id (`POST /v1/stations`): the hub's table of stations binds each
/// id to the hash of one device secret.
///
/// The rule, one pure function both stores apply inside their write transaction:
/// - an id nobody registered, or one registered before secrets existed (no hash stored),
///   is bound to the claim's secret and this session;
/// - an id whose stored hash equals the claim's is the same station signing in again: the
///   registration moves to this session, and the session that held it stops speaking for it;
/// - any other claim is refused: the id belongs to another station.
public struct StationClaim: Sendable, Hashable {
    public var deviceID: String
    /// SHA-256 of the device secret (secrets are random, so a plain hash is enough, as for tokens).
    public var secretHash: String
    public var name: String
    public var sessionID: String
    public var staffID: String
    public var now: Timestamp

    public init(deviceID: String, secretHash: String, name: String, sessionID: String, staffID: String, now: Timestamp) {
        self.deviceID = deviceID
        self.secretHash = secretHash
        self.name = name
        self.sessionID = sessionID
        self.staffID = staffID
        self.now = now
    }

    public enum Outcome: Sendable, Hashable {
        /// The session holds the registration now.
        case registered
        /// The id belongs to another station (another secret): 409.
        case deviceTaken
    }

    /// - Parameter existingSecretHash: `nil` when no station has the id; `.some(nil)` when one
    ///   registered it before secrets existed.
    public static func decide(existingSecretHash: String??, claimSecretHash: String) -> Outcome {
        switch existingSecretHash {
        case .none, .some(.none): .registered
        case .some(.some(let stored)): stored == claimSecretHash ? .registered : .deviceTaken
        }
    }
}
