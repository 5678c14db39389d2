import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /events/{id}/live`: server-sent events with the live page's counts (``LiveCounts``),
/// sent at once and again whenever the event changes.
///
/// Changes come from the hub's ``ChangeFeed``, the same one roster long-polls wait on: fed by
/// PostgreSQL notifications from every hub process (or SQLite's commits and the feed's polling),
/// never by state of the process that took the upload. A stream holds no database connection
/// while it waits; it reads the counts and the latest check-ins once per change, and sends them
/// only when they differ.
///
/// Streams hold places of the feed's dashboards pool, never the stations' (``ChangeFeed/Pool``),
/// at most a few per session and per staff member (``LiveStreamQuota``; 429 beyond), and end
/// as soon as the browser goes away (``ConnectionClosed``).
struct LiveStream {
    let site: WebSite
    let feed: ChangeFeed
    let sessions: any SessionRepository
    let events: any EventRepository
    let snapshots: LiveSnapshots
    /// Live page streams open per session and per staff member.
    let quota: LiveStreamQuota
    /// A comment line this often keeps proxies and the idle timeout from closing a quiet stream,
    /// and finds a browser that went away unseen: the server does not always learn of a closed
    /// connection while the stream waits (measured: one of three rounds of closed tabs went
    /// unnoticed until the next write), and a write to it fails. A reloaded page finds its place
    /// free within two of these at the latest.
    var keepAlive: Duration = .seconds(5)
    /// At most one read per stream this often: while 200 stations upload, an event changes all
    /// the time, and each open page would otherwise read the counts back to back. Changes in
    /// between are not lost (the hold is taken before the read); the page stays within 2 s.
    var minimumInterval: Duration = .milliseconds(500)

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("live", use: { request, context in
            let event = try context.requireEvent(), caller = try context.requireCaller()
            let token = request.cookies[WebCookies.session]?.value ?? ""
            let ticket: LiveStreamQuota.Ticket
            switch quota.admit(session: caller.sessionID, staff: caller.staff.id) {
            case .success(let admitted): ticket = admitted
            case .failure(let refusal): return Self.refused(refusal)
            }
            let closed = ConnectionClosed(context.connectionClosed)
            let body = ResponseBody { writer in
                // The places are given back when the stream ends, not when the server lets go of the answer.
                defer { ticket.giveBack() }
                // The server drains answers under way before it stops: an open live page must not
                // hold a shutdown (or a restart) until its next keep-alive.
                try await withGracefulShutdownHandler {
                    try await stream(event, token: token, closed: closed, to: &writer)
                } onGracefulShutdown: {
                    closed.end()
                }
                try await writer.finish(nil)
            }
            var headers = WebResponse.pageHeaders(contentType: "text/event-stream; charset=utf-8")
            // nginx: pass each event on at once.
            headers[.xAccelBuffering] = "no"
            return Response(status: .ok, headers: headers, body: body)
        })
    }

    /// The 429 page for a stream beyond its session's or person's share.
    static func refused(_ refusal: LiveStreamQuota.Refusal) -> Response {
        let words = switch refusal {
        case .session(let most):
            "This sign-in has \(most) live pages open, as many as one sign-in may. Close one of them (another tab or window) and reload."
        case .staff(let most):
            "Your account has \(most) live pages open over all its sign-ins, as many as one person may. Close one of them and reload."
        }
        var response = WebResponse.problem(.tooManyRequests, "Too many live pages", words)
        response.headers[.retryAfter] = "10"
        return response
    }

    private func stream(_ event: EventSummary, token: String, closed: ConnectionClosed, to writer: inout any ResponseBodyWriter) async throws {
        let time = WebTime(timeZone: event.timeZone)
        // The browser reconnects a second after the stream ends (then to the sign-in page or a 404).
        try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
        var sent: (stats: EventStats, recent: [RecentCheckIn], arrivals: ArrivalsChart)?
        var cursor: Int64?
        var lastRead: ContinuousClock.Instant?
        while !Task.isCancelled, !closed.isClosed {
            if let lastRead { try await Task.sleep(until: lastRead + minimumInterval, clock: .continuous) }
            lastRead = .now
            // The hold is taken before the read: a change committed in between wakes the wait at once.
            guard var hold = feed.hold(event: event.id, cursor: cursor, pool: .dashboards) else {
                // The process holds as many waits as it may: the browser comes back in a moment.
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                return
            }
            let wake: ChangeFeed.Wake
            do {
                // A stream lasts hours: it ends as soon as the session is signed out, revoked or
                // expired, or the event is no longer the caller's (unassigned).
                guard try await stillAllowed(event, token: token) else {
                    feed.release(hold)
                    return
                }
                // Shared with the event's other open pages; waiting from the snapshot's
                // generation, a change it may have missed wakes this stream at once.
                let snapshot = try await snapshots.snapshot(event: event)
                feed.rewind(&hold, to: snapshot.generation)
                let stats = snapshot.stats, recent = snapshot.recent, arrivals = snapshot.arrivals
                if stats != sent?.stats || recent != sent?.recent || arrivals != sent?.arrivals {
                    try await writer.write(ByteBuffer(string: try Self.message(LiveCounts(stats, recent: recent, arrivals: arrivals, accessTypeNames: snapshot.accessTypeNames, at: .now(), time: time))))
                    sent = (stats, recent, arrivals)
                } else {
                    try await writer.write(ByteBuffer(string: ": alive\n\n"))
                }
                cursor = snapshot.latestChange
                wake = await wait(&hold, until: .now + keepAlive, closed: closed)
            } catch {
                feed.release(hold)
                throw error
            }
            feed.release(hold)
            if wake == .ended { return }
        }
    }

    /// The feed's wait, ended early (`.ended`) when the browser goes away.
    private func wait(_ hold: inout ChangeFeed.Hold, until deadline: ContinuousClock.Instant, closed: ConnectionClosed) async -> ChangeFeed.Wake {
        let start = hold, feed = feed
        let (wake, seen) = await withTaskGroup(of: (ChangeFeed.Wake, ChangeFeed.Hold).self) { group in
            group.addTask {
                var waiting = start
                return (await feed.wait(&waiting, until: deadline), waiting)
            }
            group.addTask {
                await closed.wait()
                return (.ended, start)
            }
            let first = await group.next() ?? (.ended, start)
            group.cancelAll()
            return first
        }
        hold = seen
        return wake
    }

    private func stillAllowed(_ event: EventSummary, token: String) async throws -> Bool {
        guard let caller = try await sessions.session(accessHash: Tokens.hash(token), now: .now()) else { return false }
        return try await events.event(id: event.id, visibleTo: caller.staff) != nil
    }

    /// One server-sent event: `event: counts` and the update as one line of JSON.
    static func message(_ counts: LiveCounts) throws -> String {
        let data = try JSONEncoder().encode(counts.update)
        return "event: counts\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"
    }
}

extension HTTPField.Name {
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
}
