import ArgumentParser
import CheckInCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HubAPI
import HubServer
import RosterCSV

/// `checkin-hub bench security`: the issue's measurements of a hub under guessing and abuse,
/// each next to its baseline from the same run: wrong passwords in a row (throttled hub against
/// one with the throttle off), unknown against known e-mails (median sign-in time), resident
/// memory across sign-ins with 2 MB e-mails, and half-sent requests left open past the idle timeout.
struct SecurityBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "security",
        abstract: "Guessing, account probing, memory under huge sign-ins, half-open connections.",
        discussion: "Creates an event and an organizer in --db (a new SQLite file, or a PostgreSQL database of benchmarks only), starts `checkin-hub serve` child processes on free loopback ports, and removes what it made at the end.")

    @Option(help: "sqlite:NEW-FILE (removed at the end) or postgres://USER@HOST:PORT/DATABASE holding only benchmarks' data (its own removed at the end).")
    var db: String
    @Option(help: "Wrong passwords sent in a row to one account.") var guesses = 60
    @Option(help: "Sign-ins per e-mail kind for the timing medians.") var probes = 15
    @Option(help: "Sign-ins with a 2 MB e-mail.") var hugeSignIns = 120
    @Option(help: "Half-sent requests left open.") var halfOpen = 200
    @Option(help: "The idle timeout given to the hub for the half-open measurement, in seconds.") var idleTimeout = 5

    func run() async throws {
        let event = try await BenchEvent.create(in: db, name: "Security bench", guests: 1) { i in
            RosterRow(line: 2, code: TicketCode(stored: "S\(i)"), name: "Guest", email: "", company: "", accessType: "General")
        }
        try await event.whileRunning(in: db) { try await measure(event) }
    }

    /// The measurements, on `event` in `db`.
    func measure(_ event: BenchEvent) async throws {
        let throttled = try HubChildServer.start(db: db, arguments: ["--idle-timeout-seconds", String(idleTimeout)])
        defer { throttled.stop() }
        let open = try HubChildServer.start(db: db, arguments: ["--sign-in-free-failures", "0", "--sign-in-client-free-failures", "0",
                                                                 "--sign-in-account-free-failures", "0"])
        defer { open.stop() }
        printError("… hubs on ports \(throttled.port) (throttled) and \(open.port) (throttle off); \(PasswordHasher.rounds) PBKDF2 rounds")

        let guessing = try await guess(port: throttled.port, email: event.email)
        let baseline = try await guess(port: open.port, email: event.email)
        print("guessing \(guesses) wrong passwords in a row, one account (\(BenchReport.buildKind), load \(BenchReport.loadAverage())):")
        print("  throttled hub:       \(guessing.refused) answered 401, \(guessing.held) answered 429 (first after \(guessing.firstHeld.map(String.init) ?? "-") attempts) in \(format(guessing.seconds)) s")
        print("  baseline, no throttle: \(baseline.refused) answered 401, \(baseline.held) answered 429 in \(format(baseline.seconds)) s")

        let known = try await medianSignIn(port: open.port, email: event.email)
        let unknown = try await medianSignIn(port: open.port, email: "nobody-\(UInt32.random(in: 0...UInt32.max))@example.invalid")
        print("sign-in time, median of \(probes), wrong password:")
        print("  unknown e-mail:      \(format(unknown * 1_000)) ms")
        print("  baseline, known e-mail: \(format(known * 1_000)) ms (ratio \(format(unknown / max(known, 1e-9), 2)))")

        let before = residentMegabytes(open.process.processIdentifier)
        let huge = String(repeating: "a", count: 2_000_000)
        var statuses: [Int: Int] = [:]
        for i in 0..<hugeSignIns {
            statuses[try await signIn(port: open.port, email: huge + "\(i)@x.org", password: "guess").status, default: 0] += 1
        }
        let after = residentMegabytes(open.process.processIdentifier)
        print("\(hugeSignIns) sign-ins with a 2 MB e-mail (answers: \(statuses.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))):")
        print("  resident memory after: \(after) MB")
        print("  baseline, before:      \(before) MB")

        let sockets = openHalfSentRequests(port: throttled.port)
        let openAtFirst = sockets.filter(LoopbackSockets.isOpen).count
        try await Task.sleep(for: .seconds(idleTimeout + 3))
        let stillOpen = sockets.filter(LoopbackSockets.isOpen).count
        sockets.forEach { close($0) }
        print("\(halfOpen) half-sent requests, idle timeout \(idleTimeout) s:")
        print("  open \(idleTimeout + 3) s later: \(stillOpen)")
        print("  baseline, open at once: \(openAtFirst)")
    }

    struct Guessing {
        var refused = 0
        var held = 0
        var firstHeld: Int?
        var seconds = 0.0
    }

    func guess(port: Int, email: String) async throws -> Guessing {
        var result = Guessing()
        let start = ContinuousClock.now
        for attempt in 1...guesses {
            switch try await signIn(port: port, email: email, password: "wrong-\(attempt)").status {
            case 401: result.refused += 1
            case 429:
                result.held += 1
                if result.firstHeld == nil { result.firstHeld = attempt }
            case let other: throw HubLoadGenerator.BenchError(description: "a wrong password was answered \(other)")
            }
        }
        result.seconds = (ContinuousClock.now - start).seconds
        return result
    }

    func medianSignIn(port: Int, email: String) async throws -> Double {
        var times: [Double] = []
        for _ in 0..<probes {
            let start = ContinuousClock.now
            _ = try await signIn(port: port, email: email, password: "wrong")
            times.append((ContinuousClock.now - start).seconds)
        }
        return times.sorted()[times.count / 2]
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120
        return URLSession(configuration: configuration)
    }()

    func signIn(port: Int, email: String, password: String) async throws -> (status: Int, data: Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(HubPaths.signIn)")!)
        request.httpMethod = "POST"
        request.httpBody = try HubJSON.encoder().encode(SignInRequest(email: email, password: password))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await Self.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Connections that sent the head of a sign-in and half its body, then nothing.
    func openHalfSentRequests(port: Int) -> [Int32] {
        let half = "POST \(HubPaths.signIn) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":"
        return (0..<halfOpen).compactMap { _ in LoopbackSockets.open(port: port, sending: half) }
    }

    func residentMegabytes(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1_024
    }

    func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
