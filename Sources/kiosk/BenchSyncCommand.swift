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

    @Option(help: "Hub URL.") var hub: String
    @Option(help: "Staff e-mail.") var email: String
    @Option(name: .customLong("password-env"), help: "Environment variable holding the password.") var passwordEnv = "KIOSK_PASSWORD"
    @Option(help: "Event id whose roster to download (its guests must not be checked in yet).") var event: String
    @Option(help: "Queued check-ins to drain.") var drain = 10_000
    @Flag(help: "Print one JSON document.") var json = false

    func run() async throws {
        CommandOutput.bootstrapLogging()
        let password = try SyncPassword.read(fd: nil, environmentVariable: passwordEnv)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-sync-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }

        // 1. Full download, end to end, in a fresh station.
        let database = try KioskDatabase.open(dataDirectory: root.appendingPathComponent("a"))
        let engine = try SyncEngine(database: database)
        let session = try await syncing { () async throws(SyncError) in try await engine.signIn(hubURL: hub, email: email, password: password, stationName: "Bench A") }
        _ = try await syncing { () async throws(SyncError) in try await engine.use(event: event) }
        let fullStart = ContinuousClock.now
        let full = try await syncing { () async throws(SyncError) in try await engine.syncNow() }
        let fullSeconds = (ContinuousClock.now - fullStart).seconds
        let rss = peakRSSMegabytes()
        let guests = try database.status().guests

        // Baseline: the same pages over HTTP and decoded, not stored; then stored, without HTTP.
        let client = HubClient(baseURL: try HubClient.parseHubURL(hub))
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
        let storeOnly = try KioskDatabase.open(dataDirectory: root.appendingPathComponent("baseline"))
        try await storeOnly.selectSyncEvent(id: event, name: event, toleranceWindowMilliseconds: nil)
        let storeStart = ContinuousClock.now
        var batch: [RosterDelta] = []
        for (index, page) in pages.enumerated() {
            batch.append(SyncEngine.delta(page))
            if batch.count == 4 || index == pages.count - 1 {
                try await storeOnly.applyRoster(batch, eventID: event, complete: index == pages.count - 1)
                batch = []
            }
        }
        let storeSeconds = (ContinuousClock.now - storeStart).seconds

        // 2. Delta: 100 check-ins made by another device, pulled by this station.
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, code FROM guests ORDER BY rowid LIMIT ?", arguments: [100 + drain])
                .map { GuestRef(id: $0["id"], code: $0["code"]) }
        }
        let now = Timestamp.now().milliseconds
        let others = rows.prefix(100).enumerated().map { offset, row in
            CheckInUpload(key: IdempotencyKey(deviceID: "bench-other", guestID: row.id, scannedAt: Timestamp(milliseconds: now + Int64(offset))),
                          station: "Bench B", operatorName: "Bench", source: .typed)
        }
        _ = try await client.upload(token: session.accessToken, event: event, checkIns: CheckInBatch(items: Array(others)))
        let deltaStart = ContinuousClock.now
        let delta = try await syncing { () async throws(SyncError) in try await engine.syncNow() }
        let deltaMs = (ContinuousClock.now - deltaStart).milliseconds

        // 3. Drain: check-ins queued at this station, then one sync.
        for (offset, row) in rows.dropFirst(100).enumerated() {
            _ = try await database.checkIn(CheckInRequest(rawCode: row.code, source: .typed, at: Timestamp(milliseconds: now + 1_000 + Int64(offset))))
        }
        let queued = try database.pendingCount()
        let drainStart = ContinuousClock.now
        let drained = try await syncing { () async throws(SyncError) in try await engine.syncNow() }
        let drainSeconds = (ContinuousClock.now - drainStart).seconds

        var load = [Double](repeating: 0, count: 3)
        _ = getloadavg(&load, 3)
        if json {
            CommandOutput.printJSON([
                "full": ["guests": .int(guests), "pages": .int(full.pages), "seconds": .double(fullSeconds), "peak_rss_mb": .double(rss)],
                "baseline": ["fetch_decode_seconds": .double(fetchSeconds), "store_only_seconds": .double(storeSeconds)],
                "delta": ["check_ins": .int(delta.checkInsPulled), "ms": .double(deltaMs)],
                "drain": ["queued": .int(queued), "accepted": .int(drained.accepted), "seconds": .double(drainSeconds)],
                "load_average": .double(load[0]),
            ])
        } else {
            print(String(format: "full download: %d guests in %d pages, %.2f s (peak RSS %.0f MB)", guests, full.pages, fullSeconds, rss))
            print(String(format: "  baseline: fetch+decode only %.2f s, store only %.2f s", fetchSeconds, storeSeconds))
            print(String(format: "delta: %d check-ins in %.1f ms", delta.checkInsPulled, deltaMs))
            print(String(format: "drain: %d queued, %d accepted in %.2f s", queued, drained.accepted, drainSeconds))
            print(String(format: "load average: %.2f", load[0]))
        }
    }
}
