import ArgumentParser
import CheckInCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HubAPI
import HubServer
import RosterCSV
import Synchronization

/// `checkin-hub bench dashboard`: the organizer's live event page at a large event while the
/// doors upload. Measures, on one `checkin-hub serve` child over HTTP on loopback:
///
/// - the event page (`GET /events/{id}`, signed in by cookie) served, idle and while `--stations`
///   simulated stations each upload a batch of check-ins every `--interval-ms`;
/// - upload → page update: a probe station uploads one check-in at a time; each of `--pages`
///   open live pages (their server-sent stream) is timed until it shows the probe's count.
///
/// The baseline, measured in the same run: `GET /v1/health` and the event page with no load.
struct DashboardBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "The live event page served, and upload → page update, while many stations upload.",
        discussion: "Creates a fresh event in --db, starts `checkin-hub serve` on a free loopback port and drives it over HTTP.")

    @Option(help: "sqlite:NEW-FILE (removed at the end) or postgres://USER@HOST:PORT/DATABASE holding only benchmarks' data (its own removed at the end).")
    var db: String
    @Option(help: "Guests in the roster.") var guests = 100_000
    @Option(help: "Simulated stations uploading during the measurement.") var stations = 200
    // A door at full speed admits a guest every 2 s or so (scan, a look at the screen, the badge):
    // 200 such doors upload 100 check-ins a second, 120 times the pace of 1,500 guests in half an hour.
    @Option(help: "Check-ins per station upload.") var batch = 1
    @Option(help: "Milliseconds between one station's uploads.") var intervalMs = 2_000
    @Option(help: "Live event pages open (each a server-sent stream).") var pages = 5
    @Option(help: "Probe check-ins timed from upload to every open page.") var probes = 60
    @Flag(help: "Print one JSON document on stdout.") var json = false

    func validate() throws {
        guard (1...1_000).contains(stations), (1...HubPaths.maximumBatchItems).contains(batch), intervalMs >= 50,
              (1...50).contains(pages), (1...1_000).contains(probes), guests >= probes + stations * batch else {
            throw ValidationError("Give --stations 1–1000, --batch 1–\(HubPaths.maximumBatchItems), --interval-ms ≥ 50, --pages 1–50, --probes 1–1000, and enough --guests.")
        }
    }

    func run() async throws {
        progress("setting up an event with \(guests) guests")
        let event = try await BenchEvent.create(in: db, name: "Dashboard benchmark", guests: guests) { i in
            RosterRow(line: i + 2, code: TicketCode(stored: String(format: "D%07d", i)), name: "Guest \(i)", email: "guest\(i)@example.invalid",
                      company: "Company \(i % 500)", accessType: i % 10 == 0 ? "VIP" : "General")
        }
        try await event.whileRunning(in: db) { try await measure(event) }
    }

    /// The measurements, on `event` in `db`.
    func measure(_ event: BenchEvent) async throws {
        // Every page is opened with the one organizer's cookie: the hub's quota of live streams per
        // session and per person (4 and 8, for browsers) would refuse the bench's fifth page.
        let server = try HubChildServer.start(db: db, arguments: [
            "--live-streams-per-session", String(max(pages, HubLimits.defaultLiveStreamsPerSession)),
            "--live-streams-per-staff", String(max(pages, HubLimits.defaultLiveStreamsPerStaff)),
        ])
        defer { server.stop() }
        progress("hub listening on port \(server.port)")
        let generator = try await HubLoadGenerator.signIn(port: server.port, email: event.email, password: event.password,
                                                          connections: stations + pages + 8)
        let page = "/events/\(event.id)"

        // Baseline, idle: the HTTP floor and the page with nobody uploading.
        for _ in 0..<5 { _ = try await generator.page(page) }
        let health = try await generator.healthBaseline(requests: 200, concurrency: 1)
        var idle: [Double] = []
        for _ in 0..<100 { idle.append(try await generator.page(page)) }
        progress("baseline done")

        let followers = (0..<pages).map { _ in LivePageFollower(base: generator.base, event: event.id, cookie: generator.token) }
        defer { followers.forEach { $0.close() } }
        let seen = Shared<[[Int: ContinuousClock.Instant]]>(Array(repeating: [:], count: pages))
        let watchers = followers.enumerated().map { index, follower in
            Task {
                for await update in follower.updates {
                    let count = Self.probeCount(in: update.json["groupsHTML"] as? String ?? "")
                    seen.withLock { if $0[index][count] == nil { $0[index][count] = update.at } }
                }
            }
        }
        defer { watchers.forEach { $0.cancel() } }
        try await waitUntil("every page's stream opened") { seen.withLock { $0.allSatisfy { !$0.isEmpty } } }

        // The doors: each station uploads its own guests, batch by batch, until the probes are done.
        let stop = Shared(false)
        let path = HubPaths.checkIns(event: event.id)
        let perStation = (guests - probes) / stations
        let (stations, batch, intervalMs) = (stations, batch, intervalMs)
        let load = Task {
            try await withThrowingTaskGroup(of: [Double].self) { group in
                for station in 0..<stations {
                    group.addTask {
                        var latencies: [Double] = []
                        var next = station * perStation
                        // Stations do not sync in step: each starts somewhere in its interval.
                        try await Task.sleep(for: .milliseconds(Int.random(in: 0..<intervalMs)))
                        while !stop.withLock { $0 }, next + batch <= (station + 1) * perStation {
                            let items = (next..<(next + batch)).map { Self.upload(guest: $0, device: "bench-\(station)", station: "Door \(station % 20)") }
                            next += batch
                            let started = ContinuousClock.now
                            latencies.append(try await generator.send(path, body: CheckInBatch(items: items), as: CheckInBatchResult.self).seconds)
                            try await Task.sleep(until: started + .milliseconds(intervalMs), clock: .continuous)
                        }
                        return latencies
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        // Organizers reloading the page meanwhile.
        let reloads = Task {
            var latencies: [Double] = []
            while !stop.withLock { $0 } {
                latencies.append(try await generator.page(page))
                try await Task.sleep(for: .milliseconds(100))
            }
            return latencies
        }
        try await Task.sleep(for: .seconds(3))
        progress("\(stations) stations uploading; timing \(probes) probe check-ins")

        var sent: [ContinuousClock.Instant] = []
        let loadStarted = ContinuousClock.now
        for probe in 1...probes {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...700)))
            sent.append(.now)
            _ = try await generator.send(path, body: CheckInBatch(items: [Self.upload(guest: guests - probe, device: "bench-probe", station: "Probe")]),
                                         as: CheckInBatchResult.self)
            if !json, probe % 20 == 0 { progress("\(probe) probes") }
        }
        // The last probe gets the same 2 s plus a margin to show, before the load stops.
        try await Task.sleep(for: .seconds(5))
        stop.withLock { $0 = true }
        let loadSeconds = (ContinuousClock.now - loadStarted).seconds
        let uploads = try await load.value
        let underLoad = try await reloads.value

        let seenNow = seen.withLock { $0 }
        var delays: [Double] = [], missed = 0
        for (index, at) in sent.enumerated() {
            for page in seenNow {
                if let shown = page.filter({ $0.key >= index + 1 }).map(\.value).min() { delays.append((shown - at).seconds) } else { missed += 1 }
            }
        }
        let report = DashboardBenchReport(
            database: db.hasPrefix("sqlite:") ? "sqlite" : "postgres", build: BenchReport.buildKind, loadAverage: BenchReport.loadAverage(),
            guests: guests, stations: stations, batch: batch, intervalMs: intervalMs, pages: pages,
            health: health.latencies, idlePage: idle, loadedPage: underLoad, uploads: uploads, loadSeconds: loadSeconds,
            checkIns: uploads.count * batch + probes, probes: probes, delays: delays, missed: missed)
        if json { printJSON(report.json) } else { print(report.text) }
    }

    /// The probe station's admissions in the update's per-station table (0 before its first).
    static func probeCount(in html: String) -> Int {
        guard let row = html.range(of: "<td>Probe</td><td>") else { return 0 }
        return Int(html[row.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    static func upload(guest: Int, device: String, station: String) -> CheckInUpload {
        CheckInUpload(key: IdempotencyKey(deviceID: device, guestID: String(format: "D%07d", guest), scannedAt: .now()),
                      station: station, operatorName: "Bench", source: .scanner)
    }

    /// A value the benchmark's tasks share.
    final class Shared<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
    }

    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw HubLoadGenerator.BenchError(description: "not within 30 s: \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func progress(_ text: String) { if !json { printError("… " + text) } }
}

extension HubLoadGenerator {
    /// One dashboard page, signed in by the session cookie as a browser is; its round trip in seconds.
    func page(_ path: String) async throws -> Double {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.setValue("hub_session=\(token)", forHTTPHeaderField: "Cookie")
        let start = ContinuousClock.now
        let (data, response) = try await session.data(for: request)
        let seconds = (ContinuousClock.now - start).seconds
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw BenchError(description: "\(path) answered \(status): \(String(decoding: data.prefix(300), as: UTF8.self))") }
        return seconds
    }
}

/// What `checkin-hub bench dashboard` prints.
struct DashboardBenchReport {
    var database: String
    var build: String
    var loadAverage: String
    var guests: Int
    var stations: Int
    var batch: Int
    var intervalMs: Int
    var pages: Int
    var health: [Double]
    var idlePage: [Double]
    var loadedPage: [Double]
    var uploads: [Double]
    var loadSeconds: Double
    var checkIns: Int
    var probes: Int
    /// Seconds from each probe upload sent to each open page showing it.
    var delays: [Double]
    /// Probe × page pairs never shown.
    var missed: Int

    /// The issue's targets.
    static let pageTargetMs = 200.0, updateTargetMs = 2_000.0

    static func ms(_ samples: [Double], _ p: Double) -> Double {
        RateFigures(items: samples.count, requests: samples.count, seconds: 0, latencies: samples).percentile(p) * 1_000
    }

    var meetsTargets: Bool { Self.ms(loadedPage, 0.95) <= Self.pageTargetMs && Self.ms(delays, 0.95) <= Self.updateTargetMs && missed == 0 }

    var text: String {
        func line(_ samples: [Double]) -> String {
            String(format: "p50 %.1f ms, p95 %.1f ms, max %.1f ms (%d)", Self.ms(samples, 0.5), Self.ms(samples, 0.95), (samples.max() ?? 0) * 1_000, samples.count)
        }
        return """
            checkin-hub bench dashboard: \(database), \(build) build, load average \(loadAverage)
            \(guests) guests; \(stations) stations uploading \(batch) check-in(s) every \(intervalMs) ms (\(checkIns) check-ins in \(String(format: "%.0f", loadSeconds)) s); \(pages) live pages open
            baseline, idle:  GET /v1/health      \(line(health))
            baseline, idle:  event page          \(line(idlePage))
            under load:      event page          \(line(loadedPage))   target p95 ≤ \(Int(Self.pageTargetMs)) ms
            under load:      station uploads     \(line(uploads))
            upload → page:   \(probes) probes × \(pages) pages  \(line(delays))   target p95 ≤ \(Int(Self.updateTargetMs)) ms\(missed > 0 ? "; \(missed) never shown" : "")
            targets: \(meetsTargets ? "met" : "NOT met")
            """
    }

    var json: [String: Any] {
        func figures(_ samples: [Double]) -> [String: Any] {
            ["count": samples.count, "p50_ms": Self.ms(samples, 0.5), "p95_ms": Self.ms(samples, 0.95), "max_ms": (samples.max() ?? 0) * 1_000]
        }
        return ["database": database, "build": build, "load_average": loadAverage, "guests": guests, "stations": stations, "batch": batch,
                "interval_ms": intervalMs, "pages": pages, "check_ins": checkIns, "load_seconds": loadSeconds,
                "baseline": ["health": figures(health), "event_page": figures(idlePage)],
                "event_page_under_load": figures(loadedPage), "station_uploads": figures(uploads),
                "upload_to_page": figures(delays), "missed": missed, "targets_met": meetsTargets]
    }
}
