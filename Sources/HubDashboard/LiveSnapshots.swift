import CheckInCore
import HubAPI
import HubServer

/// The live page's figures of each event, read at most once per ``maximumAge`` by this hub
/// process and shared by every open live page and stream of the event.
///
/// At a large event, every read folds the event's check-ins (tens of milliseconds at 100k
/// guests); while stations upload, an event changes all the time, and each open page would
/// otherwise read them itself twice a second, and each reload once more. Shared, the reads per
/// second stay the same whatever the number of organizers watching.
///
/// A snapshot carries the ``ChangeFeed`` generation of its event from before its read began: a
/// stream that waits from that generation is woken by any change the snapshot may have missed,
/// so sharing never loses an update.
actor LiveSnapshots {
    struct Snapshot: Sendable {
        /// The feed's generation of the event when the read began.
        var generation: UInt64
        /// The event's newest change sequence number, read first.
        var latestChange: Int64
        var stats: EventStats
        var recent: [RecentCheckIn]
        /// Entries over time (``ArrivalsChart``), drawn for the event's dates and zone.
        var arrivals: ArrivalsChart
        /// The event's access types' names by id.
        var accessTypeNames: [String: String]
    }

    private struct Read {
        var started: ContinuousClock.Instant
        var task: Task<Snapshot, any Error>
    }

    /// What a live page shows: its figures, recent check-ins, arrivals and access type names.
    typealias Source = ChangeSource & ReportRepository & ArrivalRepository & EventRepository
    private let store: any Source
    private let feed: ChangeFeed
    let maximumAge: Duration
    private var reads: [String: Read] = [:]
    /// The newest finished snapshot of each event, and when its read began.
    private var finished: [String: (started: ContinuousClock.Instant, snapshot: Snapshot)] = [:]

    init(store: any Source, feed: ChangeFeed, maximumAge: Duration = .milliseconds(500)) {
        self.store = store
        self.feed = feed
        self.maximumAge = maximumAge
    }

    /// The newest snapshot of `event` begun within ``maximumAge`` (waiting for it if it is still
    /// being read), else a fresh one.
    func snapshot(event summary: EventSummary) async throws -> Snapshot {
        let event = summary.id
        let now = ContinuousClock.now
        if let read = reads[event], now - read.started < maximumAge { return try await read.task.value }
        let generation = feed.generation(of: event)
        let task = Task { [store] in
            let latest = try await store.latestChange(event: event)
            let snapshot = Snapshot(generation: generation, latestChange: latest, stats: try await store.stats(event: event),
                                    recent: try await store.recentCheckIns(event: event, limit: LiveCounts.feedLength),
                                    arrivals: try await LiveArrivals.read(store, event: summary, time: WebTime(timeZone: summary.timeZone), now: .now()),
                                    accessTypeNames: Dictionary(try await store.accessTypes(event: event).map { ($0.id, $0.name) },
                                                                uniquingKeysWith: { first, _ in first }))
            await self.finish(event, started: now, snapshot)
            return snapshot
        }
        reads[event] = Read(started: now, task: task)
        // Events no page has looked at for a while are forgotten.
        reads = reads.filter { now - $0.value.started < .seconds(60) || $0.key == event }
        finished = finished.filter { now - $0.value.started < .seconds(60) }
        return try await task.value
    }

    /// For a page being loaded: the newest finished snapshot when it began within `staleness`
    /// (refreshed in the background once older than ``maximumAge``), else ``snapshot(event:)``.
    /// The page's own stream brings it up to date within a second of opening.
    func snapshot(event summary: EventSummary, acceptingUpTo staleness: Duration) async throws -> Snapshot {
        let event = summary.id, now = ContinuousClock.now
        guard let newest = finished[event], now - newest.started < staleness else { return try await snapshot(event: summary) }
        if now - newest.started >= maximumAge, reads[event].map({ now - $0.started >= maximumAge }) ?? true {
            Task { _ = try? await self.snapshot(event: summary) }
        }
        return newest.snapshot
    }

    private func finish(_ event: String, started: ContinuousClock.Instant, _ snapshot: Snapshot) {
        if let newest = finished[event], newest.started > started { return }
        finished[event] = (started, snapshot)
    }
}
