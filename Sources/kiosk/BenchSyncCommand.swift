import ArgumentParser
import CheckInCore
import Foundation
import GRDB
import HubAPI
import KioskStore
import RosterSync

/// `kiosk bench sync`: full roster download, a delta of 100 check-ins from another station, and
/// the drain of queued check-ins, against a running hub. Baseline in the same run: the same
/// roster pages fetched and decoded without storing, and stored without HTTP.
struct BenchSyncCommand: AsyncParsableCommand {
    struct GuestRef: Sendable {
        var id: String
        var code: String
    }

    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Benchmark station sync against a running hub (use a fresh event).")

    @Option(help: "Hub URL; without it, only the station side is measured (pages decoded and stored, no HTTP).") var hub: String?
    @Option(help: "Staff e-mail.") var email = ""
    @Option(help: "Guests for the station-side measurement without a hub.") var guests = 100_000
    @Option(name: .customLong("password-env"), help: "Environment variable holding the password.") var passwordEnv = "KIOSK_PASSWORD"
    @Option(help: "Event id whose roster to download (its guests must not be checked in yet).") var event = ""

    @Option(help: "Queued check-ins to drain.") var drain = 10_000
    @Flag(help: "Print one JSON document.") var json = false

    func run() async throws {
        CommandOutput.bootstrapLogging()
        guard let hub else { return try await stationSide() }
        let password = try SyncPassword.read(fd: nil, environmentVariable: passwordEnv)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-sync-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }

        // 1. Full download, end to end, in a fresh station.
        let database = try KioskDatabase.open(dataDirectory: root.appendingPathComponent("a"), key: .besideThrowawayStore(root.appendingPathComponent("a")))
        let engine = try SyncEngine(database: database)
        let session = try await syncing { () async throws(SyncError) in try await engine.signIn(hubURL: hub, email: email, password: password, stationName: "Bench A") }
        _ = try await syncing { () async throws(SyncError) in try await engine.use(event: event) }
        let fullStart = ContinuousClock.now
        let full = try await syncing { () async throws(SyncError) in try await engine.syncNow() }
        let fullSeconds = (ContinuousClock.now - fullStart).seconds
        let rss = peakRSSMegabytes()
        let guests = try database.status().guests
        // The search index of the downloaded guests is built after the download (they are found
        // by a scan until then): timed until it is complete, before anything else runs.
        let pendingSearch = try database.searchIndex.pendingSearchCount()
        try await database.searchIndex.finishSearchIndex()
        let indexSeconds = (ContinuousClock.now - fullStart).seconds
        let searchStart = ContinuousClock.now
        _ = try database.searchIndex.search("mül")
        let searchMs = (ContinuousClock.now - searchStart).milliseconds

        // Baseline: the same pages over HTTP and decoded, not stored; then stored, without HTTP.
        let client = try HubClient(baseURL: try HubClient.parseHubURL(hub))
        let fetchStart = ContinuousClock.now
        var pages: [RosterPage] = []
        var cursor: Int64 = 0
        while true {
            let page = try await client.roster(token: session.accessToken, event: event, cursor: cursor, limit: HubPaths.maximumPageSize)
            pages.append(page)
            cursor = page.cursor
            if !page.hasMore { break }
        }
        let fetchSeconds = (ContinuousClock.now - fetchStart).seconds
        let storeOnly = try KioskDatabase.open(dataDirectory: root.appendingPathComponent("baseline"),
                                               key: .besideThrowawayStore(root.appendingPathComponent("baseline")))
        try await storeOnly.selectSyncEvent(id: event, name: event, toleranceWindowMilliseconds: nil)
        let storeStart = ContinuousClock.now
        var batch: [RosterDelta] = []
        var batchGuests = 0
        for (index, page) in pages.enumerated() {
            batch.append(SyncEngine.delta(page).delta)
            batchGuests += page.guests.count + page.checkIns.count
            if batchGuests >= SyncConfiguration().guestsPerTransaction || index == pages.count - 1 {
                try await storeOnly.applyRoster(batch, eventID: event, complete: index == pages.count - 1)
                batch = []
                batchGuests = 0
            }
        }
        let storeSeconds = (ContinuousClock.now - storeStart).seconds
        try await storeOnly.searchIndex.finishSearchIndex()

        // 2. Delta: 100 check-ins made by another device, pulled by this station.
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, kiosk_guest_field(sealed, 'code') AS code FROM guests ORDER BY rowid LIMIT ?", arguments: [100 + drain])
                .map { GuestRef(id: $0["id"], code: $0["code"]) }
        }
        let now = Timestamp.now().milliseconds
        // Another device names guests as the hub does, not by this station's ids.
        let others = try rows.prefix(100).enumerated().map { offset, row in
            CheckInUpload(key: IdempotencyKey(deviceID: "bench-other", guestID: try database.roster.hubID(ofGuest: row.id) ?? row.id,
                                              scannedAt: Timestamp(milliseconds: now + Int64(offset))),
                          station: "Bench B", operatorName: "Bench", source: .typed)
        }
        _ = try await client.upload(token: session.accessToken, event: event, checkIns: CheckInBatch(items: Array(others)))
        let deltaStart = ContinuousClock.now
        let delta = try await syncing { () async throws(SyncError) in try await engine.syncNow() }
        let deltaMs = (ContinuousClock.now - deltaStart).milliseconds

        // 3. Drain: check-ins queued at this station, then one sync.
        for (offset, row) in rows.dropFirst(100).enumerated() {
            _ = try await database.desk.checkIn(CheckInRequest(rawCode: row.code, source: .typed, at: Timestamp(milliseconds: now + 1_000 + Int64(offset))))
        }
        let queued = try database.outbox.pendingCount()
        let drainStart = ContinuousClock.now
        let drained = try await syncing { () async throws(SyncError) in try await engine.syncNow() }
        let drainSeconds = (ContinuousClock.now - drainStart).seconds

        var load = [Double](repeating: 0, count: 3)
        _ = getloadavg(&load, 3)
        if json {
            CommandOutput.printJSON([
                "full": ["guests": .int(guests), "pages": .int(full.pages), "seconds": .double(fullSeconds), "peak_rss_mb": .double(rss),
                         "search_index_pending": .int(pendingSearch), "search_index_complete_seconds": .double(indexSeconds),
                         "search_ms_after": .double(searchMs)],
                "baseline": ["fetch_decode_seconds": .double(fetchSeconds), "store_only_seconds": .double(storeSeconds)],
                "delta": ["check_ins": .int(delta.checkInsPulled), "ms": .double(deltaMs)],
                "drain": ["queued": .int(queued), "accepted": .int(drained.accepted), "seconds": .double(drainSeconds)],
                "load_average": .double(load[0]),
            ])
        } else {
            print(String(format: "full download: %d guests in %d pages, %.2f s (peak RSS %.0f MB)", guests, full.pages, fullSeconds, rss))
            print(String(format: "  search index of %d guests complete %.2f s after the start (one search then: %.1f ms)", pendingSearch, indexSeconds, searchMs))
            print(String(format: "  baseline: fetch+decode only %.2f s, store only %.2f s", fetchSeconds, storeSeconds))
            print(String(format: "delta: %d check-ins in %.1f ms", delta.checkInsPulled, deltaMs))
            print(String(format: "drain: %d queued, %d accepted in %.2f s", queued, drained.accepted, drainSeconds))
            print(String(format: "load average: %.2f", load[0]))
        }
    }

    /// Without a hub: the roster as the hub would send it (HubJSON pages of 5,000), decoded and
    /// stored the way `SyncEngine` does (next pages decoded while the previous ones are written).
    /// Baseline in the same run: decoding alone.
    func stationSide() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-sync-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let pageSize = HubPaths.maximumPageSize
        var bodies: [Data] = []
        let encoder = HubJSON.encoder()
        for start in stride(from: 0, to: guests, by: pageSize) {
            let end = min(start + pageSize, guests)
            let page = RosterPage(
                cursor: Int64(end), hasMore: end < guests,
                accessTypes: start == 0 ? [RosterAccessType(id: "general", name: "General")] : [],
                guests: (start..<end).map { RosterGuest(id: "g\($0)", code: BenchRoster.code($0), name: "Guest Number \($0)",
                                                         email: "guest\($0)@example.org", company: "Company \($0 % 500)", accessTypeID: "general") })
            bodies.append(try encoder.encode(page))
        }
        let megabytes = Double(bodies.reduce(0) { $0 + $1.count }) / 1_048_576

        let decodeStart = ContinuousClock.now
        for body in bodies { _ = try HubJSON.decoder().decode(RosterPage.self, from: body) }
        let decodeSeconds = (ContinuousClock.now - decodeStart).seconds

        let database = try KioskDatabase.open(dataDirectory: root.appendingPathComponent("data"), key: .besideThrowawayStore(root.appendingPathComponent("data")))
        try await database.selectSyncEvent(id: "bench", name: "bench", toleranceWindowMilliseconds: nil)
        let start = ContinuousClock.now
        let first = bodies[0]
        var next = Task { try HubJSON.decoder().decode(RosterPage.self, from: first) }
        var batch: [RosterDelta] = []
        var batchGuests = 0
        var writing: Task<Void, any Error>?
        for index in bodies.indices {
            let page = try await next.value
            if index + 1 < bodies.count {
                let body = bodies[index + 1]
                next = Task { try HubJSON.decoder().decode(RosterPage.self, from: body) }
            }
            batch.append(SyncEngine.delta(page).delta)
            batchGuests += page.guests.count
            if batchGuests >= SyncConfiguration().guestsPerTransaction || !page.hasMore {
                try await writing?.value
                let pages = batch, complete = !page.hasMore
                writing = Task { try await database.applyRoster(pages, eventID: "bench", complete: complete) }
                batch = []
                batchGuests = 0
            }
        }
        try await writing?.value
        let totalSeconds = (ContinuousClock.now - start).seconds
        let rss = peakRSSMegabytes()
        let stored = try database.status().guests
        var load = [Double](repeating: 0, count: 3)
        _ = getloadavg(&load, 3)
        if json {
            CommandOutput.printJSON([
                "station_side": ["guests": .int(stored), "pages": .int(bodies.count), "megabytes": .double(megabytes),
                                 "seconds": .double(totalSeconds), "peak_rss_mb": .double(rss)],
                "baseline": ["decode_only_seconds": .double(decodeSeconds)],
                "load_average": .double(load[0]),
            ])
        } else {
            print(String(format: "station side of a full download (no HTTP): %d guests, %d pages (%.1f MB JSON) decoded and stored in %.2f s, peak RSS %.0f MB",
                         stored, bodies.count, megabytes, totalSeconds, rss))
            print(String(format: "  baseline: decoding alone %.2f s", decodeSeconds))
            print(String(format: "load average: %.2f", load[0]))
        }
    }
}
