import CheckInCore
import Foundation

/// Failures of the station's storage, each saying what the operator should do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data directory cannot be created or written.
    case dataDirectoryUnusable(path: String, reason: String)
    /// The data directory belongs to another user (the station's service account).
    case notOwner(path: String, owner: String)
    /// The disk is full: nothing new was recorded, everything committed before is intact.
    case diskFull
    /// Storage did not start (failed or refused migration): see ``StorageState``.
    case storageUnavailable(StorageState)
    /// The database file is damaged or not a station database.
    case corrupt(String)
    /// An input value was refused (e.g. a walk-in without a name).
    case invalid(field: String, reason: String)
    /// A guest or check-in that was asked for does not exist.
    case notFound(String)
    /// The storage key could not be had or does not open the data: nothing was changed.
    case storageKey(StorageKeyError)
    /// Any other SQLite failure.
    case database(String)
    /// Another process writes to this data directory (``StationLock``): nothing was done.
    case anotherStationRuns(path: String, holder: StationLock.Holder?)
    /// An undo the hub would refuse (``CheckInCore/StationUndoWindow``): nothing was changed,
    /// the guest stays checked in.
    case undoBeyondHubWindow(windowMilliseconds: Int64, ageMilliseconds: Int64)

    public var description: String {
        switch self {
        case .dataDirectoryUnusable(let path, let reason):
            "Cannot use the data directory \(path) (\(reason)): check its permissions or pass --data-dir."
        case .notOwner(let path, let owner):
            "The data directory \(path) belongs to the user \(owner): run kiosk commands as that user (sudo -u \(owner) kiosk …), so the station can still open every file afterwards."
        case .diskFull:
            "The disk is full: nothing new was recorded (earlier check-ins are safe). Free some space, then retry."
        case .storageUnavailable(let state):
            state.message
        case .corrupt(let detail):
            "The station database is damaged (\(detail)). Stop the station and contact support; backups are in the data directory's backups/ folder."
        case .invalid(let field, let reason):
            "\(field): \(reason)"
        case .notFound(let what):
            "\(what) not found"
        case .storageKey(let error):
            error.description
        case .database(let detail):
            "Storage error: \(detail). Retry; if it persists, contact support."
        case .anotherStationRuns(let path, let holder):
            "Another kiosk is running on this data directory (\(path))"
                + (holder.map { ": PID \($0.pid), \"\(Sanitized.text($0.command))\", since \(Self.localTime($0.since))" } ?? "")
                + ". Nothing was done. Stop it first (a station service: sudo systemctl stop checkin-kiosk; a console: F10), "
                + "or use read-only commands beside it (kiosk status, search, export)."
        case .undoBeyondHubWindow(let window, _):
            "Not undone: too late to undo here (the hub takes a station's undo for \(Self.duration(window)) after the check-in). "
                + "The guest stays checked in; now only support staff can undo it (a station signed in with a support account)."
        }
    }
}

extension StoreError {
    /// "45 s", "7 min", "2 h 5 min": rounded down, as an operator reads it.
    static func duration(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        if seconds < 120 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 120 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// "2026-11-28 08:31:07" in the station's time zone.
    static func localTime(_ at: Timestamp) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: at.date)
    }
}
