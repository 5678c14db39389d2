import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `checkin-hub serve` process on loopback with a SQLite database in a temporary
/// directory, set up through the hub's own command line (DESIGN.md's contract).
public final class RealHub: @unchecked Sendable {
    public static let executable = BuiltProducts.executable("checkin-hub")

    /// Whether this build has the hub server (the hub area, issue 5, is merged).
    public static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: executable.path),
              let result = try? run(executable, ["serve", "--help"], timeout: 30) else { return false }
        // The placeholder executable of the hub area exits 0 for anything: ask for the real help.
        return result.status == 0 && (result.stdout + result.stderr).contains("--db")
    }()

    public let directory: TemporaryDirectory
    public let database: String
    /// Chosen free when the hub is made; a first start that finds it taken by then (another
    /// test's process bound it first) moves to another one. A restart keeps it: stations know it.
    public private(set) var port: Int
    public let eventID: String
    public let email = "alex@example.org"
    public let password = "correct horse battery"
    /// Extra `checkin-hub serve` arguments (e.g. a short access-token lifetime).
    public let serveArguments: [String]
    // Touched only by the test that owns this hub, one call at a time.
    private var process: Process?
    private var everStarted = false

    /// Whether the hub serves HTTPS (`--tls-cert` among its serve arguments).
    public var servesHTTPS: Bool { serveArguments.contains("--tls-cert") }

    public var url: String { "\(servesHTTPS ? "https" : "http")://127.0.0.1:\(port)" }

    /// A hub on a new SQLite database, or on `database` (a `postgres://` URL of an empty
    /// database, e.g. from ``PostgresCluster``), with the event "Sync Test" of `guests` guests.
    /// - Parameter namePrefix: guests are named `namePrefix N` (see ``roster(_:namePrefix:)``).
    public init(guests: Int, namePrefix: String = "Guest", database: String? = nil, serveArguments: [String] = []) throws {
        self.serveArguments = serveArguments
        directory = TemporaryDirectory("real-hub")
        self.database = database ?? "sqlite:" + directory.appending("hub.sqlite").path
        port = Self.freePort()
        let staff = try run(Self.executable, ["staff", "add", "--db", self.database, "--email", email, "--name", "Alex", "--role", "staff"],
                            stdin: password + "\n")
        guard staff.status == 0 else { throw HubFailure("staff add: \(staff.stderr)") }
        eventID = try Self.createEvent(database: self.database, directory: directory, name: "Sync Test", roster: Self.roster(guests, namePrefix: namePrefix), assign: [email])
        try start()
    }

    /// A second hub process on `other`'s database (a PostgreSQL one: several hubs at scale),
    /// with its event and staff, on its own port.
    public init(sharing other: RealHub, serveArguments: [String]? = nil) throws {
        self.serveArguments = serveArguments ?? other.serveArguments
        directory = TemporaryDirectory("real-hub")
        database = other.database
        port = Self.freePort()
        eventID = other.eventID
        try start()
    }

    public func start() throws {
        guard process == nil else { return }
        for _ in 0..<5 {
            if try launch() {
                everStarted = true
                return
            }
            guard !everStarted else { break }
            port = Self.freePort()
        }
        throw HubFailure("checkin-hub could not listen on \(url): see \(directory.appending("hub-\(port).log").path)")
    }

    /// Starts `checkin-hub serve` on ``port``; `true` once this process says it listens there and
    /// answers /v1/health, `false` when it exits first (the port was taken). A health answer alone
    /// could come from another test's hub on the same port.
    private func launch() throws -> Bool {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", "--db", database, "--host", "127.0.0.1", "--port", String(port)] + serveArguments
        // The hub's log, kept with its database for a failing test to show; a restart appends.
        let log = directory.appending("hub-\(port).log")
        if !FileManager.default.fileExists(atPath: log.path) { FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        let offset = handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        self.process = process
        // `listening on HOST:PORT`, whatever --host the serve arguments give (0.0.0.0 for all interfaces).
        func saysItListens(_ text: String) -> Bool {
            text.split(separator: "\n").contains { $0.hasPrefix("listening on ") && $0.hasSuffix(":\(port)") }
        }
        // Readiness, not a timed assertion.
        for _ in 0..<600 {
            if !process.isRunning {
                self.process = nil
                return false
            }
            if let data = try? Data(contentsOf: log), data.count > Int(offset),
               saysItListens(String(decoding: data.dropFirst(Int(offset)), as: UTF8.self)), healthy() {
                return true
            }
            usleep(50_000)
        }
        // Not left running behind a test that fails here (nobody would stop it).
        process.terminate()
        process.waitUntilExit()
        self.process = nil
        throw HubFailure("checkin-hub did not answer on \(url)")
    }

    public func stop() {
        guard let process else { return }
        resume()
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes the hub process (SIGSTOP): connections are accepted and never answered, as a hub
    /// hung under load or on a stalled disk. ``resume()`` thaws it.
    public func suspend() {
        if let process { kill(process.processIdentifier, SIGSTOP) }
    }

    public func resume() {
        if let process { kill(process.processIdentifier, SIGCONT) }
    }

    public func remove() {
        stop()
        directory.remove()
    }

    /// `checkin-hub stats --json` for the event (the first one by default).
    public func stats(event: String? = nil) throws -> [String: Any] {
        try run(Self.executable, ["stats", "--db", database, "--event", event ?? eventID, "--json"]).json()
    }

    /// A roster CSV of `guests` guests with codes `CODE000000`…, names `Guest N` (or `prefix N`).
    public static func roster(_ guests: Int, namePrefix: String = "Guest") -> String {
        "code,name,email\n" + (0..<guests).map { String(format: "CODE%06d,\(namePrefix) %d,guest%d@example.org", $0, $0, $0) }
            .joined(separator: "\n") + "\n"
    }

    /// Creates another event with its roster (through the hub's command line); returns its id.
    /// - Parameter arguments: more `checkin-hub event create` options (`--starts`, `--time-zone`…).
    public func addEvent(name: String, roster: String, arguments: [String] = []) throws -> String {
        try Self.createEvent(database: database, directory: directory, name: name, roster: roster, arguments: arguments, assign: [email])
    }

    /// Creates an event with its roster and assigns the staff with the e-mails `assign` to it
    /// (check-in staff see only their events).
    public static func createEvent(database: String, directory: TemporaryDirectory, name: String, roster: String,
                                   arguments: [String] = [], assign: [String] = []) throws -> String {
        let created = try run(executable, ["event", "create", "--db", database, "--name", name, "--json"] + arguments)
        guard created.status == 0, let id = try created.json()["id"] as? String else {
            throw HubFailure("event create: \(created.stderr)")
        }
        let csv = directory.appending("roster-\(id).csv")
        try roster.write(to: csv, atomically: true, encoding: .utf8)
        let imported = try run(executable, ["import", "--db", database, "--event", id, csv.path, "--json"], timeout: 300)
        guard imported.status == 0 else { throw HubFailure("import: \(imported.stderr)") }
        if !assign.isEmpty {
            let assigned = try run(executable, ["staff", "assign", "--db", database, "--event", id] + assign.flatMap { ["--email", $0] })
            guard assigned.status == 0 else { throw HubFailure("staff assign: \(assigned.stderr)") }
        }
        return id
    }

    /// Adds a staff account through `checkin-hub staff add` (the password on standard input).
    public func addStaff(email: String, name: String, role: String, password: String) throws {
        let added = try run(Self.executable, ["staff", "add", "--db", database, "--email", email, "--name", name, "--role", role], stdin: password + "\n")
        guard added.status == 0 else { throw HubFailure("staff add \(email): \(added.stderr)") }
    }

    /// `checkin-hub tokens list --json`.
    public func sessions() throws -> [[String: Any]] {
        let result = try run(Self.executable, ["tokens", "list", "--db", database, "--json"])
        return (try result.json()["sessions"] as? [[String: Any]]) ?? []
    }

    public func healthy() -> Bool {
        // URLSession cannot trust the test's private CA: an HTTPS hub is ready once it accepts.
        if servesHTTPS { return acceptsConnections() }
        guard let url = URL(string: url + "/v1/health") else { return false }
        let done = DispatchSemaphore(value: 0)
        let ok = LockedFlag()
        URLSession.shared.dataTask(with: url) { _, response, _ in
            if (response as? HTTPURLResponse)?.statusCode == 200 { ok.set() }
            done.signal()
        }.resume()
        done.wait()
        return ok.value
    }

    func acceptsConnections() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public struct HubFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

public final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    public init() {}
    public func set() { lock.withLock { flag = true } }
    public var value: Bool { lock.withLock { flag } }
}
