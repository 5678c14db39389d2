import CheckInCore
import HubAPI
import ServiceLifecycle

/// `GET /v1/events/{event}/roster?cursor=N&wait=S`: the page after the cursor, waiting up to S
/// seconds for one when there is nothing yet (see ``HubAPI/HubPaths/roster(event:)``).
///
/// While it waits, the request holds a place in the ``ChangeFeed`` and nothing else: no
/// database connection, no thread. Each read of the page is an ordinary short query.
struct RosterLongPoll: Sendable {
    let store: any HubStore
    let feed: ChangeFeed

    /// What to answer.
    enum Answer: Sendable {
        /// The page: changes, or nothing once the wait is over (the heartbeat).
        case page(RosterPage)
        /// Nothing, without having waited (too many held, or shutting down): `Retry-After: 1`.
        case notHeld(RosterPage)
    }

    /// The `wait` query parameter: 0 to ``HubAPI/HubPaths/maximumRosterWaitSeconds`` seconds.
    static func wait(_ text: String?) throws -> Duration {
        guard let text else { return .zero }
        guard let seconds = Int(text), (0...HubPaths.maximumRosterWaitSeconds).contains(seconds) else {
            throw HubProblem.invalid("wait", "Seconds to wait for a change: 0 to \(HubPaths.maximumRosterWaitSeconds).")
        }
        return .seconds(seconds)
    }

    func answer(event: String, after cursor: Int64, limit: Int, wait: Duration) async throws -> Answer {
        guard wait > .zero else { return .page(try await page(event, cursor, limit)) }
        let deadline = ContinuousClock.now + wait
        guard var hold = feed.hold(event: event, cursor: cursor) else {
            let page = try await page(event, cursor, limit)
            return page.isEmpty ? .notHeld(page) : .page(page)
        }
        defer { feed.release(hold) }
        // The server drains in-flight requests before it stops: a held one must not make a
        // shutdown (or a restart behind a load balancer) wait for its deadline.
        return try await withGracefulShutdownHandler {
            while true {
                // Read after taking the hold: a change committed from here on wakes the wait below.
                let page = try await page(event, cursor, limit)
                if !page.isEmpty { return .page(page) }
                switch await feed.wait(&hold, until: deadline) {
                case .changed: continue
                case .timedOut: return .page(page)
                case .ended: return .notHeld(page)
                }
            }
        } onGracefulShutdown: { [feed] in
            feed.end()
        }
    }

    private func page(_ event: String, _ cursor: Int64, _ limit: Int) async throws -> RosterPage {
        try await store.rosterPage(event: event, after: cursor, limit: limit, now: .now())
    }
}
