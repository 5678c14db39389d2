import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Pulls every roster change after the stored cursor. The first pull of an event is the full
    /// download; a killed download resumes from the last committed cursor. The next page is
    /// fetched while the previous ones are written, and pages are written in transactions of
    /// ``SyncConfiguration/guestsPerTransaction`` guests.
    func pull(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        guard let event = try storage({ () throws(StoreError) in try database.syncEvent() }) else { throw .noEvent }
        let eventID = event.eventID
        var cursor = event.cursor.flatMap(Int64.init) ?? 0
        let full = !event.complete
        report.fullDownload = full
        var total: Int?
        var done = 0
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
        while true {
            let page: RosterPage
            do { page = try await next.value } catch { throw (error as? SyncError) ?? .unreachable(String(describing: error)) }
            if page.hasMore { next = fetch(page.cursor) }
            report.pages += 1
            report.guestsPulled += page.guests.count
            report.checkInsPulled += page.checkIns.count
            buffered.append(Self.delta(page))
            bufferedGuests += page.guests.count + page.checkIns.count
            if !page.hasMore || bufferedGuests >= configuration.guestsPerTransaction {
                let pages = buffered
                let complete = !page.hasMore
                do {
                    try await database.applyRoster(pages, eventID: eventID, complete: complete)
                } catch {
                    if page.hasMore { next.cancel() }
                    throw .storage(error.description)
                }
                cursor = page.cursor
                done += pages.reduce(0) { $0 + $1.guests.count }
                buffered = []
                bufferedGuests = 0
                if full {
                    let elapsed = started.duration(to: .now).components
                    let seconds = max(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, 0.001)
                    progress?(.roster(done: done, total: total, guestsPerSecond: Double(report.guestsPulled) / seconds))
                }
            }
            if !page.hasMore { break }
        }
        await publish()
    }

    /// A hub roster page in the store's terms (public for `kiosk bench sync`'s baseline).
    public static func delta(_ page: RosterPage) -> RosterDelta {
        RosterDelta(
            accessTypes: page.accessTypes,
            guests: page.guests.map(\.guest),
            deletedGuestIDs: page.deletedGuestIDs,
            checkIns: page.checkIns.map(\.checkIn),
            undone: page.checkIns.filter(\.undone).map { ($0.key.description, Timestamp.now()) },
            nextCursor: String(page.cursor))
    }

    /// Runs a store call, mapping its error to ``SyncError/storage(_:)``.
    func storage<T>(_ body: () throws(StoreError) -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw .storage(error.description) }
    }
}
