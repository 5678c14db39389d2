import CheckInCore
import Foundation
import GRDB

/// What the hub said about one uploaded outbox entry.
public enum OutboxOutcome: Sendable, Equatable {
    /// Recorded at the hub (or recorded earlier with the same key: the same answer).
    case accepted
    /// Another station admitted the guest within the tolerance window: this one is not a second
    /// admission. Shown to the operator as information.
    case duplicate(of: PriorCheckIn)
    /// Refused for good (reason as the hub gave it); never retried, surfaced to the operator.
    case rejected(reason: String, previous: PriorCheckIn?)
    /// The hub does not know the guest. Not final while the roster may be behind: held until the
    /// next pull, and refused only after ``OutboxHold/maximumUnknownAnswers`` such answers.
    case unknownCode(reason: String)
    /// The hub refused the change's time: the station's clock was wrong when it was recorded.
    /// Never final: held, retried after each pull, shown as a clock fault.
    case implausibleTime(reason: String)
    /// Not settled (server error, timeout): stays pending, counted as one more attempt.
    case retry(reason: String)
}

/// The hub's answer for one outbox entry.
public struct OutboxResult: Sendable, Equatable {
    public var id: Int64
    public var outcome: OutboxOutcome

    public init(id: Int64, outcome: OutboxOutcome) {
        self.id = id
        self.outcome = outcome
    }
}

extension KioskDatabase {
    // MARK: Recording (in the transaction of the change itself)

    /// Adds a change for the hub in the caller's transaction, destined for the hub and event
    /// selected now (none when the station works on a local roster). A second change with the
    /// same kind and ref is the same change.
    static func enqueue(_ db: Database, _ change: OutboxChange) throws {
        let destination = try currentDestination(db)
        let suspect = try !clockIsPlausible(db, at: change.sortAt)
        try db.execute(sql: """
            INSERT OR IGNORE INTO outbox (kind, ref, payload, created_at, sort_at, hub_url, event_id, guest_id, clock_suspect)
            VALUES (?, ?, kiosk_seal(?), ?, ?, ?, ?, ?, ?)
            """, arguments: [change.kind.rawValue, change.ref, try change.payload(), Timestamp.now().milliseconds,
                             change.sortAt.milliseconds, destination?.hubURL, destination?.eventID, change.guestID, suspect])
    }

    /// The hub and event changes recorded now belong to.
    static func currentDestination(_ db: Database) throws -> SyncDestination? {
        guard let hub = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SettingKey.hubURL.rawValue]),
              let event = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SyncSettingKey.eventID.rawValue])
        else { return nil }
        return SyncDestination(hubURL: hub, eventID: event)
    }

    // MARK: Reading

    static let entryColumns = "id, kind, ref, kiosk_open(payload) AS payload, sort_at, attempts, last_error, hub_url, event_id, hold, clock_suspect"

    static func entry(_ row: Row) -> OutboxEntry {
        let kind: String = row["kind"]
        let change: Result<OutboxChange, OutboxChange.Unreadable>
        do { change = .success(try OutboxChange(kind: kind, payload: row["payload"])) } catch { change = .failure(error) }
        let hub: String? = row["hub_url"], event: String? = row["event_id"]
        return OutboxEntry(
            id: row["id"], kind: OutboxChange.Kind(rawValue: kind), ref: row["ref"], change: change,
            destination: hub.flatMap { hub in event.map { SyncDestination(hubURL: hub, eventID: $0) } },
            sortAt: Timestamp(milliseconds: row["sort_at"]), attempts: row["attempts"], lastError: row["last_error"],
            hold: (row["hold"] as String?).flatMap(OutboxHold.init(rawValue:)), clockSuspect: row["clock_suspect"])
    }
}
