import KioskStore
import PretixClient

/// Why a pretix sync step did not happen, in words for the operator.
public enum PretixSyncError: Error, Sendable, CustomStringConvertible {
    /// `kiosk pretix connect` has not been run on this station.
    case notConnected
    /// No token given, and this station is no pretix device yet (or of another pretix).
    case noDevice
    /// pretix said no, or could not be reached (its own words).
    case pretix(PretixError)
    case storage(StoreError)
    /// The event slug is not one this device may see.
    case noSuchEvent(String, known: [String])
    /// The list is not one of the event's, or the event has several and none was chosen.
    case chooseList(event: String, lists: [(id: Int, name: String)], asked: Int?)
    /// pretix revoked the device and the station ended the link: what it did, in words.
    case revoked(String)
    /// Check-ins not yet in pretix: a disconnect would strand them.
    case pendingChanges(Int)
    case linkUnreadable(path: String, reason: String)
    case linkUnwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notConnected:
            "This station is not connected to pretix: run kiosk pretix connect --url URL --token TOKEN with the device token from pretix (Organizer → Devices → Connect)."
        case .noDevice:
            "This station is not a device of that pretix yet: give --url and --token with the device token from pretix (Organizer → Devices → Connect)."
        case .pretix(let error):
            "pretix: \(error.description)"
        case .storage(let error):
            error.description
        case .noSuchEvent(let slug, let known):
            "pretix has no event \"\(slug)\" for this device. Its events: \(known.isEmpty ? "none (give the device access to the event in pretix)" : known.joined(separator: ", ")). Choose one with --event (no new token needed: the station is a pretix device now)."
        case .chooseList(let event, let lists, let asked):
            (asked.map { "Event \(event) has no check-in list \($0). " } ?? "Event \(event) has several check-in lists: choose one with --list (no new token needed: the station is a pretix device now). ")
                + "Its lists: " + lists.map { "\($0.id) (\($0.name))" }.joined(separator: ", ") + "."
        case .revoked(let words):
            words
        case .pendingChanges(let count):
            "\(count) check-in\(count == 1 ? " is" : "s are") not in pretix yet: run kiosk pretix sync once pretix answers, or disconnect with --discard to drop \(count == 1 ? "it" : "them") (the station keeps its own record)."
        case .linkUnreadable(let path, let reason):
            "The pretix connection in \(path) cannot be read (\(reason)): connect again with kiosk pretix connect."
        case .linkUnwritable(let path, let reason):
            "The pretix connection cannot be kept in \(path) (\(reason)): check the data directory's disk and permissions."
        }
    }

    /// pretix revoked this station's device: the link must end (``PretixSync/end(_:at:)``).
    public var isDeviceRevoked: Bool {
        if case .pretix(.deviceRevoked) = self { return true }
        return false
    }

    /// How long pretix asked the station to wait (`429 Retry-After`), when it did.
    public var retryAfterSeconds: Int? {
        if case .pretix(.tooManyRequests(let seconds)) = self { return seconds }
        return nil
    }

    /// Worth trying again later (pretix down, slow or busy); everything else needs a person.
    public var isTransient: Bool {
        if case .pretix(let error) = self { return error.isTransient }
        return false
    }
}
