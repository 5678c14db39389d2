import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Follows the hub's changes without polling delay: a long-poll on the roster cursor that the
    /// hub answers as soon as any station's change to the event is committed (or after
    /// ``SyncConfiguration/followWait``, an empty answer that is also the heartbeat), then a pull.
    /// Another door's admission reaches this station within a second; while this connection is
    /// down, the interval pull is the fallback, and offline the station works as always.
    func followLoop() async {
        guard configuration.followWait > .zero else { return }
        var failures = 0
        while !Task.isCancelled {
            if let quietUntil, quietUntil > .now {
                // The hub asked for quiet: the follow request waits like everything else.
                try? await Task.sleep(until: quietUntil, clock: .continuous)
                continue
            }
            guard let cursor = await followableCursor() else {
                following = false
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            do throws(SyncError) {
                let wait = Int(configuration.followWait.components.seconds)
                let eventID = cursor.eventID
                let asked = ContinuousClock.now
                let page = try await authorizedFollow { client, token in
                    try await client.roster(token: token, event: eventID, cursor: cursor.value, limit: 1, wait: wait)
                }
                failures = 0
                logger.debug("follow answered", metadata: ["cursor": "\(cursor.value)", "next": "\(page.cursor)",
                                                            "waited": "\(ContinuousClock.now - asked)"])
                if let quietUntil, quietUntil > .now {
                    // The hub asked for quiet while this request was out: the pull and push
                    // it would start wait like everything else (top of the loop).
                    continue
                }
                if page.cursor > cursor.value || page.hasMore {
                    following = true
                    var report = SyncReport()
                    try await exclusivePull(into: &report, progress: nil)
                    try await exclusivePush(into: &report, progress: nil)
                } else if ContinuousClock.now - asked < .seconds(1) {
                    // Nothing new and no wait: a hub that does not hold requests. The interval
                    // pull stays in charge; ask again later rather than at once.
                    following = false
                    try? await Task.sleep(for: configuration.pullInterval)
                } else {
                    following = true
                }
            } catch {
                logger.debug("follow failed", metadata: ["error": "\(error)"])
                following = false
                failures += 1
                try? await Task.sleep(for: configuration.retrySchedule.delay(afterFailures: failures, retryAfterSeconds: nil))
            }
        }
        following = false
    }

    /// The event and cursor to follow: only once the event's full download is done (the
    /// download itself is the interval loop's) and while the station is signed in to a hub it
    /// may talk to.
    func followableCursor() async -> (eventID: String, value: Int64)? {
        guard refusal == nil, let session, !session.signedOut, monitor.state != .offline,
              let event = try? database.syncEvent(), event.complete, let cursor = event.cursor.flatMap(Int64.init) else { return nil }
        return (event.eventID, cursor)
    }

    /// Runs a pull unless one is running already, in which case it waits for that one: pages of
    /// one cursor are never fetched and applied twice at once.
    func exclusivePull(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        while pulling {
            try? await Task.sleep(for: .milliseconds(10))
            if Task.isCancelled { return }
        }
        pulling = true
        defer { pulling = false }
        let started = ContinuousClock.now
        try await pull(into: &report, progress: progress)
        stallWatch.pulled(startedAt: started)
    }

    /// Runs a push once no other is running: the follow loop's push after a wake and the
    /// interval loop's nudged push would otherwise upload the same changes at once, and the
    /// hub would serialize them on the guests' locks.
    func exclusivePush(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        while pushing {
            try? await Task.sleep(for: .milliseconds(10))
            if Task.isCancelled { return }
        }
        pushing = true
        defer { pushing = false }
        try await push(into: &report, progress: progress)
    }

    /// An authorized request on the follow client, whose timeout leaves room for the hub's wait.
    func authorizedFollow<Answer: Sendable>(
        _ request: @Sendable (HubClient, String) async throws -> Answer
    ) async throws(SyncError) -> Answer {
        guard let client else { throw noClientReason }
        let follow = try followClient(for: client.baseURL)
        return try await authorized(using: follow, request)
    }

    func followClient(for url: URL) throws(SyncError) -> HubClient {
        if let existing = follower, existing.baseURL == url { return existing }
        let created = try makeClient(url, timeout: configuration.followWait + configuration.requestTimeout)
        follower = created
        return created
    }
}
