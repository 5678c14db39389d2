import CheckInCore

/// One event in the picker, already reduced to what the console shows.
public struct EventChoice: Sendable, Equatable {
    public var id: String
    public var name: String
    /// "Sat 28 Nov 09:00 – 18:00" in the venue's time zone, or "".
    public var when: String
    /// Whether it is on now, later, or over, by the station's clock.
    public var phase: EventPhase

    public init(id: String, name: String, when: String, phase: EventPhase = .undated) {
        self.id = id
        self.name = name
        self.when = when
        self.phase = phase
    }
}

/// The event picker: today's, this week's or all events of the signed-in staff member, one
/// chosen with ↑↓ and Enter; or, on a station a pretix device QR code just made a pretix device,
/// the check-in lists of the device's events (no ranges: pretix lists what the device may use).
public struct EventPicker: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case stay
        /// Ask the hub for this range's events.
        case list(EventRange)
        case choose(EventChoice)
    }

    public private(set) var range: EventRange = .today
    public private(set) var events: [EventChoice] = []
    /// The event Enter uses; none while every listed event has ended (one is chosen with ↑↓).
    public private(set) var selected: Int?
    /// The list for ``range`` is on its way.
    public private(set) var loading = true
    public var problem: String?
    /// An event was chosen and its roster is being prepared: keys wait.
    public var busy = false
    /// Who is signed in, for the title ("Signed in as Ada (manager) at https://…").
    public var signedInAs: String
    /// The pretix server whose check-in lists these are; `nil` for the hub's events.
    public private(set) var pretixServer: String?

    public init(signedInAs: String) { self.signedInAs = signedInAs }

    /// The check-in lists of a new pretix device, the one pretix suggests chosen.
    public init(pretix server: String, lists: [EventChoice], suggested: String?) {
        signedInAs = ""
        pretixServer = server
        range = .all
        events = lists
        selected = suggested.flatMap { id in lists.firstIndex { $0.id == id } } ?? EventPhase.preferred(lists.map(\.phase))
        loading = false
    }

    /// The hub's list for a range (ignored when the operator moved to another range meanwhile).
    mutating func show(_ events: [EventChoice], for range: EventRange) {
        guard range == self.range else { return }
        // A refresh keeps the operator's pick; a new list starts on the event happening now.
        let picked = selected.flatMap { self.events.indices.contains($0) ? self.events[$0].id : nil }
        self.events = events
        selected = picked.flatMap { id in events.firstIndex { $0.id == id } } ?? EventPhase.preferred(events.map(\.phase))
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
        // pretix's lists come as one list, chosen once: no ranges to switch, nothing to refresh.
        if pretixServer != nil, [.left, .right, .tab, .backTab, .function(5)].contains(key) { return .stay }
        switch key {
        case .left, .backTab: return switchRange(-1)
        case .right, .tab: return switchRange(1)
        case .up: move(-1)
        case .down: move(1)
        case .pageUp: move(-10)
        case .pageDown: move(10)
        case .enter:
            guard let selected, events.indices.contains(selected) else { return .stay }
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

    private mutating func move(_ step: Int) {
        guard !events.isEmpty else { return }
        // With nothing chosen yet, the first press chooses the top of the list.
        guard let current = selected else { selected = 0; return }
        selected = min(events.count - 1, max(0, current + step))
    }

    private mutating func switchRange(_ step: Int) -> Outcome {
        let all = EventRange.allCases
        let index = all.firstIndex(of: range) ?? 0
        range = all[(index + step + all.count) % all.count]
        events = []
        selected = nil
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
