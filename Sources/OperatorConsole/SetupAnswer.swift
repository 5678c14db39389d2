import CheckInCore

/// What the station answers to the console's set-up requests (sign in, list events, use one).
public enum SetupAnswer: Sendable, Equatable {
    /// Signed in: "Ada Lovelace (manager) at https://hub.example.org".
    case signedIn(as: String)
    /// The hub refused the sign-in or could not be reached; what to do, in words.
    case signInRefused(String)
    case events([EventChoice], for: EventRange)
    case eventsUnavailable(String)
    /// The chosen event's roster is downloading: guests so far, of the total when known.
    case downloading(event: String, done: Int, total: Int?)
    /// The download paused (the hub went away); it resumes by itself.
    case downloadPaused(event: String, problem: String)
    /// The event could not be chosen (refused by the hub): back to the picker.
    case eventRefused(String)
    /// The roster is here: scanning starts.
    case rosterReady(event: String, guests: Int)
    /// The station signed out and holds no roster: the sign-in screen again.
    case signedOut
    /// A scanned pretix device QR code is being taken: connecting to pretix at this address.
    case pretixConnecting(server: String)
    /// pretix took the station as a device that may use several check-in lists: the operator
    /// chooses this door's (`suggested`: the one pretix suggests, chosen at first).
    case pretixLists(server: String, lists: [EventChoice], suggested: String?)
    /// pretix did not take the station as a device (a spent token, pretix unreachable); what
    /// to do, in words, on the sign-in screen.
    case pretixRefused(String)
}

/// What the set-up screens start from.
public struct SetupDefaults: Sendable, Equatable {
    /// The configuration's hub: the sign-in screen does not ask for it.
    public var hub: String?
    /// The configuration's event: chosen after sign-in instead of opening the picker.
    public var event: String?
    /// The e-mail of the last sign-in on this station, filled in again.
    public var email: String
    /// The sign-in screen offers the demo roster (F5) instead of a hub.
    public var demo: Bool

    public init(hub: String? = nil, event: String? = nil, email: String = "", demo: Bool = false) {
        self.hub = hub
        self.event = event
        self.email = email
        self.demo = demo
    }
}
