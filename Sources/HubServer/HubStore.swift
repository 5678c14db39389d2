import CheckInCore
import HubAPI
import RosterCSV

/// Where the hub keeps everything: one protocol, a SQLite and a PostgreSQL implementation that
/// pass the same contract tests. Implementations keep no state that correctness depends on:
/// several hub processes may share one PostgreSQL database.
///
/// The routes' controllers see only the repository they need (``EventRepository``,
/// ``StaffRepository``, ``SessionRepository``, ``SyncRepository``, ``ReportRepository``, ``StationRepository``).
public protocol HubStore: EventRepository, StaffRepository, SessionRepository, SyncRepository, ReportRepository, StationRepository,
    AuditRepository, ExportRepository,
    AdminRepository, ReviewRepository,
    GuestRepository, ArrivalRepository,
    ChangeSource {
    /// `sqlite` or `postgres`.
    var kind: String { get }

    /// Applies pending migrations (embedded in the binary); returns the names applied now.
    func migrate() async throws -> [String]
    /// Name of the last applied migration.
    func schemaVersion() async throws -> String
    func close() async
}

/// What `checkin-hub import` reports.
public struct ImportSummary: Sendable, Hashable {
    public var imported: Int
    public var updated: Int
    public var unchanged: Int
    /// With `replace`: the codes of guests missing from the new file, revoked by this import.
    public var revokedMissing: [String] = []

    /// What an import compares of a guest to tell a change from a row seen again.
    static func values(name: String, email: String, company: String, typeID: String, revoked: Bool, facts: TicketFacts) -> [String] {
        [name, email, company, typeID, revoked.description, facts.validFrom?.description ?? "", facts.validUntil?.description ?? "",
         facts.attentionNote ?? "", facts.orderCode, facts.checkedInBefore?.description ?? ""]
    }

    /// Counts one roster row (`values`) against what the event held for its code (`old`);
    /// false when the row changes nothing and need not be written.
    mutating func count(_ values: [String], old: [String]?) -> Bool {
        switch old {
        case nil: imported += 1
        case values: unchanged += 1; return false
        default: updated += 1
        }
        return true
    }
}

/// A session to create at sign-in.
public struct NewSession: Sendable {
    public var id: String
    public var staffID: String
    public var tokens: NewTokens
    public var createdAt: Timestamp
    /// When the session ends whatever is refreshed (``HubServerConfiguration/sessionLifetimeSeconds``).
    public var endsAt: Timestamp

    public static let defaultLifetimeMilliseconds: Int64 = 7 * 86_400_000

    public init(id: String, staffID: String, tokens: NewTokens, createdAt: Timestamp, endsAt: Timestamp? = nil) {
        self.id = id
        self.staffID = staffID
        self.tokens = tokens
        self.createdAt = createdAt
        self.endsAt = endsAt ?? createdAt.adding(milliseconds: Self.defaultLifetimeMilliseconds)
    }
}

/// Hashes and expiry of a fresh token pair.
public struct NewTokens: Sendable {
    public var accessHash: String
    public var accessExpires: Timestamp
    public var refreshHash: String
    public var refreshExpires: Timestamp

    public init(accessHash: String, accessExpires: Timestamp, refreshHash: String, refreshExpires: Timestamp) {
        self.accessHash = accessHash
        self.accessExpires = accessExpires
        self.refreshHash = refreshHash
        self.refreshExpires = refreshExpires
    }
}

/// The caller behind a valid access token.
public struct AuthenticatedSession: Sendable, Hashable {
    public var sessionID: String
    public var staff: StaffInfo
    /// The device whose station registration this session holds now (`nil` when it registered
    /// none, or another session took the registration over).
    public var deviceID: String?
    public var stationName: String?
    /// When the session ends at the latest, refreshed or not.
    public var endsAt: Timestamp?
}

/// One row of `checkin-hub tokens list`.
public struct SessionSummary: Sendable, Hashable, Codable {
    public var id: String
    public var staffEmail: String
    public var deviceID: String?
    public var stationName: String?
    public var createdAt: Timestamp
    public var lastUsedAt: Timestamp
    public var revoked: Bool
}

/// Who is uploading, as the hub knows it (never as the upload says): the session's staff
/// member and role, and the device whose registration the session holds.
///
/// Stored beside every check-in, walk-in and undo as `uploaded_by`. For undos it is also the
/// caller of ``UndoPolicy``: support staff and above may undo anything; others only what their
/// registered device recorded, within the event's station undo time.
public struct Uploader: Sendable, Hashable {
    public var staffID: String
    public var role: StaffRole
    public var deviceID: String?

    public init(staffID: String, role: StaffRole, deviceID: String?) {
        self.staffID = staffID
        self.role = role
        self.deviceID = deviceID
    }

    public init(_ session: AuthenticatedSession) {
        self.init(staffID: session.staff.id, role: session.staff.role, deviceID: session.deviceID)
    }
}

/// Errors of the storage layer, with what the operator should do.
public enum HubStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case migrationChecksumMismatch(String)
    case unknownEvent(String)
    case duplicateEvent(String)
    case duplicateStaff(String)
    case unknownStaff(String)
    case invalidDatabaseURL(String)
    case unavailable(String)

    public var description: String {
        switch self {
        case .migrationChecksumMismatch(let name):
            "Migration \(name) differs from the one applied to this database. Do not edit shipped migrations; contact support."
        case .unknownEvent(let id): "No event \(id). List events with `checkin-hub events` or create one with `checkin-hub event create`."
        case .duplicateEvent(let id): "An event with id \(id) exists already."
        case .duplicateStaff(let email): "A staff member with e-mail \(email) exists already."
        case .unknownStaff(let email): "No staff member \(email). List them with `checkin-hub staff list` or add one with `checkin-hub staff add`."
        case .invalidDatabaseURL(let text): "Cannot use database \(text): give sqlite:PATH or postgres://USER@HOST:PORT/DB."
        case .unavailable(let reason): "The database is not available: \(reason). Check that it runs and that --db is right."
        }
    }
}
