import CheckInCore
import Foundation
import HTTPTransport
import KioskStore

/// The station's hub session: where the hub is, the tokens, and who signed in.
///
/// Kept in `session.json` in the data directory, sealed with a key derived from the store's data
/// key (so only the storage key opens it, like the guest data), readable and writable only by
/// the kiosk user (mode 0600, written atomically): tokens never go to the database (whose
/// backups are copied around) and never to the command line.
public struct StationSession: Sendable, Codable, Equatable {
    public var hubURL: String
    public var accessToken: String
    public var accessExpiresAt: Timestamp
    public var refreshToken: String
    public var refreshExpiresAt: Timestamp
    public var sessionID: String
    public var staffEmail: String
    /// Display name recorded as the operator of check-ins ("by Alex").
    public var staffName: String
    public var staffRole: String
    /// Set when the hub refused a refresh (revoked or expired): the station keeps every pending
    /// change and waits for the next `kiosk signin`.
    public var signedOut: Bool
    /// The trust the station signed in with (its private CA, or plain HTTP allowed); `nil` in
    /// sessions from before it was kept. Used by commands that name none of their own.
    public var transport: TransportPolicy?

    public init(hubURL: String, accessToken: String, accessExpiresAt: Timestamp, refreshToken: String, refreshExpiresAt: Timestamp,
                sessionID: String, staffEmail: String, staffName: String, staffRole: String, signedOut: Bool = false,
                transport: TransportPolicy? = nil) {
        self.hubURL = hubURL
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
        self.sessionID = sessionID
        self.staffEmail = staffEmail
        self.staffName = staffName
        self.staffRole = staffRole
        self.signedOut = signedOut
        self.transport = transport
    }

    /// Whether the access token should be refreshed before use: less than a minute left.
    public func needsRefresh(at now: Timestamp = .now()) -> Bool {
        let left = accessExpiresAt.milliseconds - now.milliseconds
        return left < 60_000
    }
}

/// Reads and writes ``StationSession`` in the data directory.
public struct SessionFile: Sendable {
    public var url: URL { file.url }
    let file: SealedFile
    /// Beside the session: see ``SessionLock``.
    let lockURL: URL

    /// The session of the station whose database is `database` (which seals it).
    public init(database: KioskDatabase) {
        self.init(dataDirectory: database.dataDirectory, sealer: database)
    }

    public init(dataDirectory: URL, sealer: any SecretSealer) {
        file = SealedFile(dataDirectory.appendingPathComponent("session.json"), sealer: sealer)
        lockURL = dataDirectory.appendingPathComponent("session.lock")
    }

    /// Runs `body` holding the lock every process of this data directory takes before it
    /// refreshes or replaces the session.
    func withLock<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws(SyncError) -> T) async throws(SyncError) -> T {
        let lock = try await SessionLock.acquire(at: lockURL)
        defer { lock.release() }
        return try await body()
    }

    /// The stored session, or `nil` when none (never signed in, or signed out).
    public func load() throws(SyncError) -> StationSession? {
        let data: Data, opened: Data
        do throws(SealedFileError) {
            guard let bytes = try file.bytes() else { return nil }
            data = bytes
        } catch { throw .sessionUnreadable(path: url.path, reason: error.reason) }
        // A session written before it was sealed is plain JSON: read, then sealed in place.
        // Only when it decodes: a sealed file starts with a random nonce, `{` one time in 256,
        // and was then misread as JSON ("sign in again" after a successful sign-in).
        if data.first == UInt8(ascii: "{"), let session = try? JSONDecoder().decode(StationSession.self, from: data) {
            try? save(session)
            return session
        }
        do { opened = try file.open(data) } catch { throw .sessionUnreadable(path: url.path, reason: error.reason) }
        do { return try JSONDecoder().decode(StationSession.self, from: opened) } catch {
            throw .sessionUnreadable(path: url.path, reason: "it does not hold a session this version understands")
        }
    }

    /// Writes the session (``SealedFile``: mode 0600, atomically, fsynced).
    public func save(_ session: StationSession) throws(SyncError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do throws(SealedFileError) {
            let data: Data
            do { data = try encoder.encode(session) } catch { throw .unwritable(path: url.path, reason: String(describing: error)) }
            try file.write(data)
        } catch {
            guard case .unwritable(let path, let reason) = error else { throw .sessionUnwritable(path: url.path, reason: error.reason) }
            throw .sessionUnwritable(path: path, reason: reason)
        }
    }

    /// Removes the session (sign-out): tokens are gone from the disk.
    public func remove() {
        file.remove()
    }
}
