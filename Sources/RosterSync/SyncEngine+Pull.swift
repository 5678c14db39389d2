import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Pulls every roster change after the stored cursor. The first pull of an event is the full
    /// download; a killed download resumes from the last committed cursor. Pages are written in
    /// transactions of ``SyncConfiguration/guestsPerTransaction`` guests, one after the other in
    /// cursor order, while the next pages are fetched and decoded: the hub, the decoder and
    /// SQLite overlap instead of waiting for each other (at most one transaction's pages plus
    /// one in flight are held in memory).
    func pull(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        guard let event = try mappingStoreErrors({ () throws(StoreError) in try database.syncEvent() }) else { throw .noEvent }
        let eventID = event.eventID
        let cursor = event.cursor.flatMap(Int64.init) ?? 0
        let full = !event.complete
        report.fullDownload = full
        var total: Int?
        var done = 0
        var applied = 0
        if full {
            total = try? await authorized { client, token in try await client.stats(token: token, event: eventID) }.expected
            done = cursor == 0 ? 0 : ((try? database.status(consumeNotice: false).guests) ?? 0)
            progress?(.roster(done: done, total: total, guestsPerSecond: 0))
        }
        let started = ContinuousClock.now
        let limit = configuration.pageSize
        func fetch(_ after: Int64) -> Task<RosterPage, any Error> {
            Task { try await self.authorized { client, token in try await client.roster(token: token, event: eventID, cursor: after, limit: limit) } }
        }
        var next = fetch(cursor)
        var buffered: [RosterDelta] = []
        var bufferedGuests = 0
        let knownTotal = total
        let reportProgress = { (done: Int, applied: Int) in
            guard full else { return }
            let elapsed = started.duration(to: .now).components
            let seconds = max(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, 0.001)
            progress?(.roster(done: done, total: knownTotal, guestsPerSecond: Double(applied) / seconds))
        }
        // The transaction being written and how many guests it holds.
        var writing: (task: Task<Void, any Error>, guests: Int)?
        while true {
            let page: RosterPage
            do { page = try await next.value } catch {
                try? await writing?.task.value
                throw (error as? SyncError) ?? .unreachable(String(describing: error))
            }
            if page.hasMore { next = fetch(page.cursor) }
            report.pages += 1
            report.guestsPulled += page.guests.count
            report.checkInsPulled += page.checkIns.count
            let (delta, skipped) = Self.delta(page, believableAt: believableNow())
            report.skipped += skipped
            if skipped > 0 { logger.warning("roster page carried check-ins with implausible times; skipped", metadata: ["count": "\(skipped)"]) }
            buffered.append(delta)
            bufferedGuests += page.guests.count + page.checkIns.count
            guard !page.hasMore || bufferedGuests >= configuration.guestsPerTransaction else { continue }
            // One transaction at a time, in cursor order: the previous one commits before the
            // next starts, so a kill leaves the cursor of the last committed page.
            if let previous = writing {
                writing = nil
                do { try await Self.awaitRosterWrite(previous.task) } catch {
                    if page.hasMore { next.cancel() }
                    throw error
                }
                done += previous.guests
                applied += previous.guests
                reportProgress(done, applied)
            }
            let pages = buffered
            let complete = !page.hasMore
            let guests = pages.reduce(0) { $0 + $1.guests.count }
            let task = Task { [database] in try await database.applyRoster(pages, eventID: eventID, complete: complete) }
            buffered = []
            bufferedGuests = 0
            guard complete else {
                writing = (task, guests)
                continue
            }
            try await Self.awaitRosterWrite(task)
            done += guests
            applied += guests
            reportProgress(done, applied)
            break
        }
        // Held changes are tried once more now that the roster is current.
        try await mappingStoreErrors { () async throws(StoreError) in try await database.outbox.releaseHeldChanges() }
        await publish()
    }

    /// The time against which roster rows are judged: the hub's clock as this station last saw
    /// it when that is known (this station's own may be wrong), else the station's.
    func believableNow() -> Timestamp {
        let local = Timestamp.now()
        guard let skew = client?.serverClock.skewMilliseconds else { return local }
        return Timestamp(milliseconds: local.milliseconds.subtractingReportingOverflow(skew).partialValue)
    }

    /// A hub roster page in the store's terms (public for `kiosk bench sync`'s baseline).
    /// Check-ins whose scan time is not believable at `now` (``CheckInCore/PlausibleTime``) are
    /// left out and counted: the hub never sends them, and a station never trusts that it didn't.
    public static func delta(_ page: RosterPage, believableAt now: Timestamp = .now()) -> (delta: RosterDelta, skipped: Int) {
        let checkIns = page.checkIns.filter { PlausibleTime.contains($0.key.scannedAt, now: now) }
        let delta = RosterDelta(
            accessTypes: page.accessTypes,
            guests: page.guests.map(\.guest),
            deletedGuestIDs: page.deletedGuestIDs,
            checkIns: checkIns.map(\.checkIn),
            undone: checkIns.filter(\.undone).map { ($0.key.description, Timestamp.now()) },
            merges: page.merges ?? [],
            nextCursor: String(page.cursor))
        return (delta, page.checkIns.count - checkIns.count)
    }

    /// Waits for a roster write, mapping its error to ``SyncError/storage(_:)``.
    static func awaitRosterWrite(_ write: Task<Void, any Error>) async throws(SyncError) {
        do { try await write.value } catch { throw .storage((error as? StoreError) ?? .database(String(describing: error))) }
    }
}
