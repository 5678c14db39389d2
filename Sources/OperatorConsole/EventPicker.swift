import CheckInCore

/// One event in the picker, already reduced to what the console shows.
public struct EventChoice: Sendable, Equatable {
    public var id: String
    public var name: String
    /// "Sat 28 Nov 09:00 – 18:00" in the venue's time zone, or "".
    public var when: String

    public init(id: String, name: String, when: String) {
        self.id = id
        self.name = name
        self.when = when
    }
}

/// The event picker: today's, this week's or all events of the signed-in staff member, one
/// chosen with ↑↓ and Enter.
public struct EventPicker: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case stay
        /// Ask the hub for this range's events.
        case list(EventRange)
        case choose(EventChoice)
    }

    public private(set) var range: EventRange = .today
    public private(set) var events: [EventChoice] = []
    public private(set) var selected = 0
    /// The list for ``range`` is on its way.
    public private(set) var loading = true
    public var problem: String?
    /// An event was chosen and its roster is being prepared: keys wait.
    public var busy = false
    /// Who is signed in, for the title ("Signed in as Ada (manager) at https://…").
    public var signedInAs: String

    public init(signedInAs: String) { self.signedInAs = signedInAs }

    /// The hub's list for a range (ignored when the operator moved to another range meanwhile).
    mutating func show(_ events: [EventChoice], for range: EventRange) {
        guard range == self.range else { return }
        self.events = events
        selected = min(selected, max(0, events.count - 1))
        loading = false
        problem = nil
    }

    mutating func failed(_ problem: String) {
        loading = false
        busy = false
        self.problem = problem
    }

    mutating func handle(_ key: Key) -> Outcome {
        guard !busy else { return .stay }
        switch key {
        case .left, .backTab: return switchRange(-1)
        case .right, .tab: return switchRange(1)
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(max(0, events.count - 1), selected + 1)
        case .pageUp: selected = max(0, selected - 10)
        case .pageDown: selected = min(max(0, events.count - 1), selected + 10)
        case .enter:
            guard events.indices.contains(selected) else { return .stay }
            busy = true
            problem = nil
            return .choose(events[selected])
        case .function(5):
            loading = true
            return .list(range)
        default: break
        }
        return .stay
    }

    private mutating func switchRange(_ step: Int) -> Outcome {
        let all = EventRange.allCases
        let index = all.firstIndex(of: range) ?? 0
        range = all[(index + step + all.count) % all.count]
        events = []
        selected = 0
        loading = true
        problem = nil
        return .list(range)
    }
}

/// The first roster download of the chosen event, as the console shows it.
public struct RosterDownload: Sendable, Equatable {
    public var eventName: String
    public var done = 0
    public var total: Int?
    /// Why the download is paused ("Cannot reach the hub… retrying in 4 s"); nil while it runs.
    public var problem: String?

    public init(eventName: String) { self.eventName = eventName }
}
