import CheckInCore

/// What the storage layer found at start-up. Anything but `ready`/`updated` means the station
/// must not scan, and shows a diagnostic with pending data counts instead.
public enum StorageState: Sendable, Equatable {
    /// The schema is current.
    case ready
    /// This start upgraded the schema (reported once, then `ready`).
    case updated(from: Int, to: Int)
    /// A migration failed; the database stayed at its previous version with all data.
    case migrationFailed(migration: String, error: String)
    /// A migration already applied differs from the one shipped in this binary.
    case checksumMismatch(migration: String)
    /// The database was written by a newer station version than this one.
    case newerSchema(version: Int, known: Int)

    /// Whether the station may record check-ins.
    public var isUsable: Bool {
        switch self {
        case .ready, .updated: true
        default: false
        }
    }

    /// The operator's next step, when there is something to do.
    public var action: String? { isUsable ? nil : "Contact support" }

    /// A one-line description for the console and logs.
    public var message: String {
        switch self {
        case .ready: "Storage ready"
        case .updated(let from, let to): "Storage updated v\(from) → v\(to)"
        case .migrationFailed(let migration, let error): "Storage upgrade \(migration) failed: \(error). Check-ins are safe. Contact support."
        case .checksumMismatch(let migration): "Migration \(migration) differs from the one already applied. Contact support."
        case .newerSchema(let version, let known): "The database is at version \(version), newer than this station (\(known)). Install the newer kiosk or contact support."
        }
    }

    /// The `storage` object of `kiosk status --json`.
    public var json: [String: JSONValue] {
        switch self {
        case .ready: ["state": "ok"]
        case .updated(let from, let to): ["state": "updated", "from": .int(from), "to": .int(to)]
        case .migrationFailed(let migration, let error):
            ["state": "migration_failed", "migration": .string(migration), "error": .string(error), "action": "Contact support"]
        case .checksumMismatch(let migration):
            ["state": "checksum_mismatch", "migration": .string(migration),
             "error": .string("the shipped migration was edited after it was applied"), "action": "Contact support"]
        case .newerSchema(let version, let known):
            ["state": "newer_schema", "version": .int(version), "supported": .int(known), "action": "Contact support"]
        }
    }
}
