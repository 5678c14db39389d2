import ArgumentParser
import CheckInCore
import Foundation
import HubAPI
import HubServer
import RosterCSV

/// `checkin-hub bench`: the hub's benchmarks, each against `checkin-hub serve` child processes
/// over real HTTP on loopback. Without a subcommand, `ingest` (as before there were two).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark a hub (see README): ingest (default), propagation, security, abuse or dashboard.",
        subcommands: [IngestBench.self, PropagationBench.self, SecurityBench.self, AbuseBench.self, DashboardBench.self],
        defaultSubcommand: IngestBench.self)
}

/// `checkin-hub bench [ingest]`: roster pull, ingest from many stations and a 10k replay, with a
/// health-check baseline measured in the same run.
struct IngestBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Roster pull, check-in ingest from many stations, replay of 10k queued check-ins.",
        discussion: "Creates a fresh event in --db, starts `checkin-hub serve` on a free loopback port and drives it over HTTP.")

    @Option(help: "sqlite:NEW-FILE (removed at the end) or postgres://USER@HOST:PORT/DATABASE holding only benchmarks' data (its own removed at the end).")
    var db: String
    @Option(help: "Guests in the roster.") var guests = 100_000
    @Option(help: "Concurrent simulated stations uploading check-ins.") var stations = 200
    @Option(help: "Check-ins to ingest (default: min(40000, guests - 10000)).") var checkins: Int?
    @Option(help: "Check-ins per upload batch during ingest.") var batch = 50
    @Option(help: "Guests per roster page.") var pageSize = 1_000
    @Option(help: "Queued check-ins replayed from one station.") var replay = 10_000
    @Flag(help: "Print one JSON document on stdout.") var json = false

    func validate() throws {
        guard guests > replay, stations > 0, batch > 0, batch <= HubPaths.maximumBatchItems, pageSize > 0, replay > 0 else {
            throw ValidationError("Give --guests above --replay, and positive --stations, --batch (at most \(HubPaths.maximumBatchItems)) and --page-size.")
        }
        if let checkins, checkins <= 0 || checkins > guests - replay { throw ValidationError("--checkins must be 1 to guests - replay.") }
    }

    func run() async throws {
        progress("setting up an event with \(guests) guests")
        let event = try await BenchEvent.create(in: db, name: "Benchmark", guests: guests) { i in
            RosterRow(line: i + 2, code: TicketCode(stored: String(format: "B%07d", i)), name: "Guest \(i)", email: "guest\(i)@example.invalid",
                      company: "Company \(i % 500)", accessType: "General")
        }
        try await event.whileRunning(in: db) { try await measure(event) }
    }

    /// The measurements, on `event` in `db`.
    func measure(_ event: BenchEvent) async throws {
        let eventID = event.id
        let server = try HubChildServer.start(db: db)
        defer { server.stop() }
        progress("hub listening on port \(server.port)")
        let generator = try await HubLoadGenerator.signIn(port: server.port, email: event.email, password: event.password, connections: stations)

        let baseline = try await generator.healthBaseline(requests: stations * 10, concurrency: stations)
        progress("baseline done")
        let roster = try await generator.pullRoster(event: eventID, pageSize: pageSize)
        progress("roster pull done")
        let ids = roster.guestIDs
        guard ids.count >= guests else { throw ValidationError("The roster pull returned \(ids.count) guests, expected \(guests).") }
        let ingestCount = checkins ?? min(40_000, guests - replay)
        let ingest = try await generator.ingest(event: eventID, guestIDs: Array(ids[0..<ingestCount]), stations: stations, batch: batch)
        progress("ingest done")
        let queued = Array(ids[ingestCount..<(ingestCount + replay)])
        let first = try await generator.replay(event: eventID, guestIDs: queued, deviceID: "bench-replay")
        let second = try await generator.replay(event: eventID, guestIDs: queued, deviceID: "bench-replay")
        let identical = first.results == second.results

        let report = BenchReport(
            database: db.hasPrefix("sqlite:") ? "sqlite" : "postgres", build: BenchReport.buildKind, loadAverage: BenchReport.loadAverage(),
            stations: stations, baseline: baseline, roster: roster, ingest: ingest, replay: first, replayAgain: second, replayIdentical: identical)
        if json { printJSON(report.json) } else { print(report.text) }
    }

    func progress(_ text: String) { if !json { printError("… " + text) } }
}
