import CheckInCore
import HTTPTransport

/// Tunables of ``SyncEngine``; the defaults are issue 6's.
public struct SyncConfiguration: Sendable {
    /// Delta pull (and push) interval while online.
    public var pullInterval: Duration = .seconds(5)
    /// Bound of every request.
    public var requestTimeout: Duration = .seconds(10)
    /// Guests per roster page asked from the hub (the hub caps it at 5,000).
    public var pageSize = 5_000
    /// Outbox entries per upload request (the hub accepts up to 1,000).
    public var uploadBatchSize = 500
    /// Roster pages are written in transactions of at least this many guests. A page per
    /// transaction: with the search index built after the download, a transaction costs little
    /// of its own, and smaller ones start SQLite sooner and leave less to write after the last
    /// page (100k guests: 3.7-4.0 s end to end, against 4.1-4.8 s with 20,000).
    public var guestsPerTransaction = 5_000
    public var retrySchedule = RetrySchedule()
    /// Answers slower than this make the link `degraded`.
    public var slowThreshold: Duration = .seconds(3)
    /// How long a follow request may wait at the hub for the next change (a long-poll); its
    /// answer is also the connection's heartbeat, so it stays below the hub's idle timeout.
    /// Zero turns following off (the interval pull alone).
    public var followWait: Duration = .seconds(20)
    /// The largest hub answer read (see ``HubClient/maximumAnswerBytes``).
    public var maximumAnswerBytes = HubClient.maximumAnswerBytes
    /// Which hub addresses are allowed and which CA is trusted (`ca_file`, `allow_insecure_http`).
    public var transport = TransportPolicy()

    public init() {}
}

/// What the console and `kiosk status` show about sync.
public struct SyncStatus: Sendable, Equatable {
    public var state: ConnectivityState
    /// Changes waiting for the hub.
    public var pending: Int
    /// Changes the hub refused for good (surfaced, not retried).
    public var rejected: Int
    public var lastPull: String?
    public var lastPush: String?
    /// The last failure, for the operator (sanitized).
    public var lastError: String?
    /// When the hub ends this station's sign-in at the latest, however often it refreshes.
    public var sessionEndsAt: Timestamp?
    /// Whether any request reached the hub or failed since the engine started (before that the
    /// state is `offline` by default, not because the hub was found unreachable).
    public var contacted = false
}

/// Progress of one sync, for a progress bar or JSON lines.
public enum SyncProgress: Sendable, Equatable {
    /// Roster download: guests applied so far, the total when known, and the rate.
    case roster(done: Int, total: Int?, guestsPerSecond: Double)
    /// Upload: changes settled so far in this sync and still pending.
    case upload(done: Int, pending: Int)
}

/// What one ``SyncEngine/syncNow(progress:)`` did.
public struct SyncReport: Sendable, Equatable {
    public var guestsPulled = 0
    public var checkInsPulled = 0
    public var pages = 0
    /// The pull was (part of) a full download.
    public var fullDownload = false
    public var accepted = 0
    public var duplicates = 0
    public var rejected = 0
    /// Answered but held for the next pull (unknown code, implausible time): not final.
    public var held = 0
    /// Roster rows skipped because their times are not believable (see ``CheckInCore/PlausibleTime``).
    public var skipped = 0
    /// Events whose changes could not be uploaded with this session, and why.
    public var waiting: [Waiting] = []
    /// Still pending after this sync.
    public var pending = 0

    /// Changes for an event this session may not upload to (they wait, nothing is dropped).
    public struct Waiting: Sendable, Equatable {
        public var eventID: String
        public var reason: String
    }

    public init() {}
}
