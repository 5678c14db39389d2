import ServiceLifecycle
import Synchronization

/// One hub process's view of which events changed: roster long-polls and live page streams
/// wait here, and the store reports its commits here (``ChangeSink``).
///
/// Stations' long-polls and dashboards' streams hold places in two pools of their own
/// (``Pool``): however many pages are open, a door's long-poll is still held.
///
/// A wait holds neither a database connection nor a thread: it is a continuation in a table,
/// resumed by a report, its deadline, or shutdown. Each event has a generation, bumped by every
/// report; a ``Hold`` remembers the generation it has seen, so a change reported between a
/// request's page read and its wait is never lost (the wait returns at once).
///
/// While reports may be incomplete (SQLite: other processes write the file too; PostgreSQL: the
/// listener is down), ``run()`` polls ``ChangeSource/latestChange(event:)`` once per
/// ``pollInterval`` for each event a request is held for, and wakes the event when it grew.
///
/// While they are complete it still polls, once per ``backstopInterval``, and wakes only the
/// waiting requests whose cursor is behind the newest change: a listener connection that died
/// without a word (noticed only when its ping goes unanswered, up to 15 s later) or a
/// notification delivered late by a starved database then costs a door at most that interval,
/// and a notification that did arrive causes no second wake.
public final class ChangeFeed: ChangeSink, Service {
    /// Why a wait ended.
    public enum Wake: Sendable, Hashable {
        /// The event changed since the hold last looked (or may have: a report cannot say what).
        case changed
        /// The deadline passed.
        case timedOut
        /// The hub is shutting down, or the waiting request was cancelled: answer now.
        case ended
    }

    /// Whose places a hold takes.
    public enum Pool: Sendable, Hashable {
        /// Stations' roster long-polls (``maximumHeld``).
        case stations
        /// The dashboard's live page streams (``maximumStreams``).
        case dashboards
    }

    /// A held request's place in the feed: taken by ``hold(event:cursor:pool:)``, given back with ``release(_:)``.
    public struct Hold: Sendable {
        public let event: String
        public let pool: Pool
        /// The requester's roster cursor: it waits for changes after it (`nil`: unknown, any change).
        public let cursor: Int64?
        /// The event's generation when this hold last looked.
        fileprivate(set) var generation: UInt64
    }

    private enum Waiter {
        case pending(event: String)
        case waiting(event: String, cursor: Int64?, CheckedContinuation<Wake?, Never>)
        case cancelled

        var event: String? {
            switch self {
            case .pending(let event), .waiting(let event, _, _): event
            case .cancelled: nil
            }
        }
    }

    private struct State {
        var generations: [String: UInt64] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Per event, the newest change sequence number known (the polling baseline).
        var latest: [String: Int64] = [:]
        var reportsAreComplete = false
        /// Requests held, per event (what the poll looks at).
        var holds: [String: Int] = [:]
        /// Requests held, per pool.
        var held: [Pool: Int] = [:]
        var ended = false
    }

    private let state = Mutex(State())
    private let source: any ChangeSource
    private let followsReports: Bool
    /// Most stations' long-polls held at once; beyond it ``hold(event:cursor:pool:)`` refuses (the request is answered at once).
    public let maximumHeld: Int
    /// Most live page streams held at once, apart from the stations' places.
    public let maximumStreams: Int
    public let pollInterval: Duration
    /// How often held events are polled while reports are complete (the backstop).
    public let backstopInterval: Duration

    /// - Parameters:
    ///   - source: the store.
    ///   - maximumHeld: most stations' long-polls held at once by this process.
    ///   - maximumStreams: most live page streams held at once by this process.
    ///   - followReports: `false` ignores the store's reports and polls only (for a PostgreSQL
    ///     behind a pooler that cannot LISTEN).
    ///   - pollInterval: how often to poll while reports may be incomplete.
    ///   - backstopInterval: how often to poll while they are complete.
    public init(source: any ChangeSource, maximumHeld: Int = 1_000, maximumStreams: Int = HubLimits.defaultMaximumLiveStreams,
                followReports: Bool = true, pollInterval: Duration = .seconds(1), backstopInterval: Duration = .milliseconds(500)) {
        self.source = source
        self.maximumHeld = maximumHeld
        self.maximumStreams = maximumStreams
        self.followsReports = followReports
        self.pollInterval = pollInterval
        self.backstopInterval = backstopInterval
    }

    // MARK: Holding

    /// A place for one held request of `event` in `pool`, or `nil` when the pool's requests are
    /// held already (``maximumHeld``, ``maximumStreams``) or the hub is shutting down. Take it
    /// *before* reading the page the request may wait on.
    /// - Parameter cursor: the request's roster cursor; the backstop poll wakes it only for a
    ///   change after it.
    public func hold(event: String, cursor: Int64? = nil, pool: Pool = .stations) -> Hold? {
        let maximum = pool == .stations ? maximumHeld : maximumStreams
        return state.withLock { state in
            guard !state.ended, state.held[pool, default: 0] < maximum else { return nil }
            state.held[pool, default: 0] += 1
            state.holds[event, default: 0] += 1
            return Hold(event: event, pool: pool, cursor: cursor, generation: state.generations[event, default: 0])
        }
    }

    public func release(_ hold: Hold) {
        state.withLock { state in
            state.held[hold.pool, default: 1] -= 1
            state.holds[hold.event, default: 1] -= 1
            if state.holds[hold.event] == 0 { state.holds[hold.event] = nil }
        }
    }

    /// Whether the hold's event changed since the hold last looked (``wait(_:until:)`` would return at once).
    func hasChanged(_ hold: Hold) -> Bool {
        state.withLock { $0.generations[hold.event, default: 0] != hold.generation }
    }

    /// The event's generation now: what a hold taken now would have seen.
    package func generation(of event: String) -> UInt64 {
        state.withLock { $0.generations[event, default: 0] }
    }

    /// Makes the hold wait from `generation` (taken before a read the holder shares with
    /// others, ``LiveSnapshots``): a change after it wakes the wait at once.
    package func rewind(_ hold: inout Hold, to generation: UInt64) {
        hold.generation = generation
    }

    /// Stations' long-polls held now.
    public var held: Int { state.withLock { $0.held[.stations, default: 0] } }

    /// Live page streams held now.
    public var heldStreams: Int { state.withLock { $0.held[.dashboards, default: 0] } }

    /// Requests waiting for a change now (held ones between two page reads are not).
    var waiting: Int {
        state.withLock { state in state.waiters.values.count { if case .waiting = $0 { true } else { false } } }
    }

    /// Whether every change is being reported (otherwise the feed polls).
    public var reportsAreComplete: Bool { state.withLock { $0.reportsAreComplete } }

    /// Waits until the hold's event changes after what the hold has seen, `deadline` passes, or
    /// the hub shuts down. On `.changed` the hold has seen the current generation: read the page
    /// after this returns.
    public func wait(_ hold: inout Hold, until deadline: ContinuousClock.Instant) async -> Wake {
        let event = hold.event, seen = hold.generation, cursor = hold.cursor
        let wake = await withTaskGroup(of: Wake?.self) { group in
            group.addTask { await self.change(of: event, after: seen, cursor: cursor) }
            group.addTask {
                do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return nil }
                return .timedOut
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        hold.generation = state.withLock { $0.generations[event, default: 0] }
        // nil: this request's own task was cancelled (its client went away).
        return wake ?? .ended
    }

    /// Resumed by a report of `event`, by ``end()``, or with `nil` when cancelled.
    private func change(of event: String, after seen: UInt64, cursor: Int64?) async -> Wake? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            state.waiters[state.nextWaiter] = .pending(event: event)
            return state.nextWaiter
        }
        // The entry exists before the continuation does, so a cancellation arriving in between
        // marks it instead of being lost, and removing it afterwards leaves nothing behind.
        let wake = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake?, Never>) in
                let now: Wake?? = state.withLock { state in
                    if state.ended { return .some(.ended) }
                    if state.generations[event, default: 0] != seen { return .some(.changed) }
                    guard case .pending = state.waiters[id] else { return .some(nil) }
                    state.waiters[id] = .waiting(event: event, cursor: cursor, continuation)
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Wake?, Never>? = state.withLock { state in
                switch state.waiters[id] {
                case .waiting(_, _, let continuation):
                    state.waiters[id] = nil
                    return continuation
                case .pending:
                    state.waiters[id] = .cancelled
                    return nil
                case .cancelled, nil:
                    return nil
                }
            }
            continuation?.resume(returning: nil)
        }
        state.withLock { _ = $0.waiters.removeValue(forKey: id) }
        return wake
    }

    /// Takes every wait `matching` (its event and cursor) out of the table, for resuming with
    /// `wake` outside the lock.
    private func resume(_ wake: Wake, where matching: (String, Int64?) -> Bool, in state: inout State) -> [CheckedContinuation<Wake?, Never>] {
        var woken: [CheckedContinuation<Wake?, Never>] = []
        for (id, waiter) in state.waiters {
            guard case .waiting(let event, let cursor, let continuation) = waiter, matching(event, cursor) else { continue }
            state.waiters[id] = nil
            woken.append(continuation)
        }
        return woken
    }

    // MARK: ChangeSink

    public func changed(event: String, sequence: Int64?) {
        let woken = state.withLock { state in
            state.generations[event, default: 0] &+= 1
            if let sequence { state.latest[event] = max(state.latest[event] ?? sequence, sequence) }
            return resume(.changed, where: { waiting, _ in waiting == event }, in: &state)
        }
        // Resumed outside the lock: a continuation may run its task on this thread.
        for continuation in woken { continuation.resume(returning: .changed) }
    }

    public func reportsEveryChange(_ complete: Bool) {
        let woken = state.withLock { state in
            let was = state.reportsAreComplete
            state.reportsAreComplete = complete
            guard complete, !was else { return [CheckedContinuation<Wake?, Never>]() }
            // Reports start (again): whatever happened while they were missing may not have been seen.
            for event in state.generations.keys { state.generations[event, default: 0] &+= 1 }
            for event in Set(state.holds.keys).union(state.waiters.values.compactMap(\.event)) where state.generations[event] == nil {
                state.generations[event] = 1
            }
            return resume(.changed, where: { _, _ in true }, in: &state)
        }
        for continuation in woken { continuation.resume(returning: .changed) }
    }

    /// Ends every wait now and refuses new holds: the hub is shutting down.
    public func end() {
        let woken = state.withLock { state in
            state.ended = true
            return resume(.ended, where: { _, _ in true }, in: &state)
        }
        for continuation in woken { continuation.resume(returning: .ended) }
    }

    // MARK: Service

    /// Follows the store's reports and polls while they may be incomplete, until graceful
    /// shutdown; then ends every wait.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            if followsReports {
                group.addTask { await self.source.reportChanges(to: self) }
            }
            group.addTask { await self.poll() }
            try? await gracefulShutdown()
            end()
            group.cancelAll()
        }
    }

    private func poll() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: reportsAreComplete ? backstopInterval : pollInterval) } catch { return }
            await pollOnce()
        }
    }

    /// One round of polling. While reports may be incomplete: wakes each held event whose newest
    /// change is beyond what the feed knew (an event polled the first time is woken too). While
    /// they are complete (the backstop): wakes the waiting requests whose cursor is behind the
    /// event's newest change, which a report would have woken already.
    func pollOnce() async {
        let (events, complete): ([String], Bool) = state.withLock { state in
            (Array(state.holds.keys), state.reportsAreComplete)
        }
        for event in events {
            guard let latest = try? await source.latestChange(event: event) else { continue }
            if complete {
                wake(event: event, behind: latest)
                continue
            }
            let grew = state.withLock { state in
                if let known = state.latest[event], known >= latest { return false }
                return true
            }
            if grew { changed(event: event, sequence: latest) }
        }
    }

    /// Wakes the waiting requests of `event` whose cursor is before `latest` (the backstop).
    private func wake(event: String, behind latest: Int64) {
        let woken = state.withLock { state in
            resume(.changed, where: { waiting, cursor in waiting == event && (cursor ?? .min) < latest }, in: &state)
        }
        for continuation in woken { continuation.resume(returning: .changed) }
    }
}
