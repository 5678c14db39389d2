/// Where the station day starts, decided from what the data directory holds and what the
/// configuration asks for. A pure value: the launcher gathers the facts, the console and the
/// set-up service carry the decision out.
///
/// What was chosen on the station (the session, the event) is kept in the data directory and
/// wins over the configuration file until sign-out; the configuration's `event` applies only
/// while none is chosen.
public enum StationStart: Sendable, Equatable {
    /// The roster is here (a hub's, or a local one): scanning.
    case scan
    /// Not signed in, no local roster and no hub roster kept at sign-out: the sign-in screen (the hub asked for unless
    /// configured), or the demo roster when there is no screen to sign in on.
    case signIn
    /// Signed in, no event chosen and none configured: the event picker.
    case pickEvent(signedInAs: String)
    /// An event is chosen (on the station or in the configuration) and its roster is not
    /// complete: download it, with progress.
    case download(event: String)

    /// The facts the decision needs.
    public struct Facts: Sendable, Equatable {
        /// "Ada Lovelace (manager) at https://hub.example.org" when signed in, else nil.
        public var signedInAs: String?
        /// The chosen event's name, if one is chosen.
        public var chosenEvent: String?
        /// Whether the chosen event's full roster is here.
        public var chosenEventComplete = false
        /// Guests of a roster imported on the station (a CSV, the demo roster).
        public var importedGuests: Int
        public var configuredEvent: String?

        public init(signedInAs: String?, chosenEvent: String?, chosenEventComplete: Bool, importedGuests: Int, configuredEvent: String?) {
            self.signedInAs = signedInAs
            self.chosenEvent = chosenEvent
            self.chosenEventComplete = chosenEventComplete
            self.importedGuests = importedGuests
            self.configuredEvent = configuredEvent
        }
    }

    public static func decide(_ facts: Facts) -> StationStart {
        guard let who = facts.signedInAs else {
            // A local roster, or a hub's roster kept at sign-out: scanning offline on it.
            let keptRoster = facts.chosenEvent != nil && facts.chosenEventComplete
            return facts.importedGuests > 0 || keptRoster ? .scan : .signIn
        }
        if let chosen = facts.chosenEvent {
            return facts.chosenEventComplete ? .scan : .download(event: chosen)
        }
        if let configured = facts.configuredEvent { return .download(event: configured) }
        return .pickEvent(signedInAs: who)
    }

    /// The configuration's event is to be chosen now (nothing chosen on the station yet).
    public static func configuredEventToUse(_ facts: Facts) -> String? {
        guard facts.signedInAs != nil, facts.chosenEvent == nil else { return nil }
        return facts.configuredEvent
    }
}
