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
