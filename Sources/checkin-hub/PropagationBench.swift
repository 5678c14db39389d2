import ArgumentParser
import CheckInCore
import Foundation
import HubAPI
import HubServer
import RosterCSV

/// `checkin-hub bench propagation`: how long a check-in committed through one hub process takes
/// to reach stations whose roster long-poll is held on another process of the same database
/// (PostgreSQL LISTEN/NOTIFY), measured from the HTTP client's side on loopback.
///
/// Each change: `--followers` long-polls are held on hub B (confirmed by B's
/// `checkin_hub_held_requests` gauge), one check-in is uploaded to hub A, and every follower's
/// answer is timed from the moment the upload was sent (an upper bound of commit → answer: the
/// upload's own round trip is included) and from the moment A answered (the commit is before it;
/// can be slightly negative when B answers first).
struct PropagationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "propagation",
        abstract: "Time from a check-in committed through hub A to long-polls held on hub B answering.",
        discussion: """
            Creates a fresh event in --db and starts two `checkin-hub serve` processes on it (one with sqlite:, \
            which allows one process per file: A and B are then the same). Needs no other load on the machine to mean much.
            """)

    @Option(help: "postgres://USER@HOST:PORT/DATABASE holding only benchmarks' data (two hub processes), or sqlite:NEW-FILE (one); what the run made is removed at the end.")
    var db: String
    @Option(help: "Changes to time.") var changes = 200
    @Option(help: "Stations following hub B (each holds a long-poll at every change).") var followers = 1
    @Flag(help: "Start hub B with --poll-changes: the figure when LISTEN is not available.") var pollChanges = false
    @Flag(help: "Print one JSON document on stdout.") var json = false

    func validate() throws {
        guard (1...100_000).contains(changes), (1...500).contains(followers) else {
            throw ValidationError("Give --changes from 1 to 100000 and --followers from 1 to 500.")
        }
    }

    func run() async throws {
        progress("setting up an event with \(changes) guests")
        let event = try await BenchEvent.create(in: db, name: "Propagation benchmark", guests: changes) { i in
            RosterRow(line: i + 2, code: TicketCode(stored: String(format: "P%07d", i)), name: "Guest \(i)", email: "", company: "", accessType: "General")
        }
        try await event.whileRunning(in: db) { try await measure(event) }
    }

    /// The measurements, on `event` in `db`.
    func measure(_ event: BenchEvent) async throws {
        let eventID = event.id
        let sqlite = db.hasPrefix("sqlite:")
        // B (A too with SQLite, which has one process per file) polls instead of listening when asked.
        let followerArguments = pollChanges ? ["--poll-changes"] : []
        let a = try HubChildServer.start(db: db, arguments: sqlite ? followerArguments : [])
        defer { a.stop() }
        let b = sqlite ? a : try HubChildServer.start(db: db, arguments: followerArguments)
        defer { if !sqlite { b.stop() } }
        progress("hub A on port \(a.port), hub B on port \(b.port)")
        let uploader = try await HubLoadGenerator.signIn(port: a.port, email: event.email, password: event.password, connections: 4)
        let follower = try await HubLoadGenerator.signIn(port: b.port, email: event.email, password: event.password, connections: followers + 4)

        var cursor = try await follower.tail(event: eventID)
        var fromUpload: [Double] = [], fromAnswer: [Double] = []
        for change in 0..<changes {
            let polls = (0..<followers).map { _ in
                Task { [cursor] in try await follower.longPoll(event: eventID, after: cursor, waitSeconds: HubPaths.maximumRosterWaitSeconds) }
            }
            try await follower.waitUntilHeld(followers)
            // A polling B would otherwise see every change just after its own poll (the loop
            // keeps in step with it): changes arrive at random moments of the poll cycle instead.
            if pollChanges { try await Task.sleep(for: .milliseconds(Int.random(in: 0..<1_000))) }
            let sent = ContinuousClock.now
            let guest = String(format: "P%07d", change)
            let item = CheckInUpload(key: IdempotencyKey(deviceID: "bench-a", guestID: guest, scannedAt: .now()), station: "Door A",
                                     operatorName: "Bench", source: .scanner)
            _ = try await uploader.send(HubPaths.checkIns(event: eventID), body: CheckInBatch(items: [item]), as: CheckInBatchResult.self)
            let answered = ContinuousClock.now
            for poll in polls {
                let (page, at) = try await poll.value
                guard page.checkIns.map(\.key.guestID) == [guest] else {
                    throw HubLoadGenerator.BenchError(description: "hub B answered without the check-in of \(guest): \(page.checkIns.count) check-ins")
                }
                fromUpload.append((at - sent).seconds)
                fromAnswer.append((at - answered).seconds)
                cursor = page.cursor
            }
            if !json, (change + 1) % 50 == 0 { progress("\(change + 1) changes") }
        }

        let report = PropagationReport(
            database: (sqlite ? "sqlite (one process: A = B)" : "postgres (two processes)")
                + (pollChanges ? ", B polling (--poll-changes)" : ""), build: BenchReport.buildKind,
            loadAverage: BenchReport.loadAverage(), changes: changes, followers: followers, fromUpload: fromUpload, fromAnswer: fromAnswer)
        if json { printJSON(report.json) } else { print(report.text) }
    }

    func progress(_ text: String) { if !json { printError("… " + text) } }
}

/// What `checkin-hub bench propagation` prints.
struct PropagationReport {
    var database: String
    var build: String
    var loadAverage: String
    var changes: Int
    var followers: Int
    /// Seconds from sending the upload to A until each follower's answer from B.
    var fromUpload: [Double]
    /// Seconds from A's answer to the upload until each follower's answer from B.
    var fromAnswer: [Double]

    static func percentiles(_ samples: [Double]) -> [String: Double] {
        let figures = RateFigures(items: samples.count, requests: samples.count, seconds: 0, latencies: samples)
        return ["p50_ms": figures.percentile(0.5) * 1000, "p95_ms": figures.percentile(0.95) * 1000,
                "p99_ms": figures.percentile(0.99) * 1000, "max_ms": (samples.max() ?? 0) * 1000]
    }

    var text: String {
        func line(_ samples: [Double]) -> String {
            let p = Self.percentiles(samples)
            return ["p50_ms", "p95_ms", "p99_ms", "max_ms"].map { String(format: "%@ %.1f ms", String($0.dropLast(3)), p[$0] ?? 0) }.joined(separator: ", ")
        }
        return """
            checkin-hub bench propagation: \(database), \(build) build, load average \(loadAverage)
            \(changes) check-ins uploaded to A, one at a time, \(followers) long-poll(s) held on B at each (\(fromUpload.count) answers)
            upload sent → B answered:  \(line(fromUpload))
            A answered  → B answered:  \(line(fromAnswer))
            """
    }

    var json: [String: Any] {
        ["database": database, "build": build, "load_average": loadAverage, "changes": changes, "followers": followers,
         "upload_to_answer": Self.percentiles(fromUpload), "commit_to_answer": Self.percentiles(fromAnswer)]
    }
}

extension HubLoadGenerator {
    /// The cursor after every change the event has now.
    func tail(event: String) async throws -> Int64 {
        var cursor: Int64 = 0
        while true {
            let page = try await get(HubPaths.roster(event: event) + "?cursor=\(cursor)&limit=\(HubPaths.maximumPageSize)", as: RosterPage.self).value
            cursor = page.cursor
            if !page.hasMore { return cursor }
        }
    }

    /// One roster long-poll; the page and the instant its answer arrived.
    func longPoll(event: String, after cursor: Int64, waitSeconds: Int) async throws -> (RosterPage, ContinuousClock.Instant) {
        let page = try await get(HubPaths.roster(event: event) + "?cursor=\(cursor)&wait=\(waitSeconds)", as: RosterPage.self).value
        return (page, .now)
    }

    /// Until the hub holds `count` long-polls (its `checkin_hub_held_requests` gauge; needs a
    /// support or organizer session).
    func waitUntilHeld(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let text = String(decoding: try await send(HubPaths.metrics, body: nil).data, as: UTF8.self)
            let held = text.split(separator: "\n").first { $0.hasPrefix("checkin_hub_held_requests ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
            if let held, held >= count { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw BenchError(description: "hub B did not hold \(count) long-poll(s) within 20 s")
    }
}
