import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HubAPI
import KioskTestSupport

/// A real `checkin-hub serve` child process on a loopback port.
final class HubProcess: @unchecked Sendable {  // Process is used from the test task only.
    let process = Process()
    let port: Int

    /// - Parameters:
    ///   - environment: variables set (or replaced) for the hub only.
    ///   - descriptorLimit: the hub's open-file limit (`ulimit -n`), as a small unit or shell would set it.
    ///   - umask: the file-mode mask the hub starts with (`umask`), as a shell would set it.
    ///   - log: where the hub's log goes (by default nowhere); `arguments` may raise its level.
    init(db: String, arguments: [String] = [], environment: [String: String] = [:], descriptorLimit: Int? = nil,
         umask: String? = nil, log: URL? = nil) throws {
        let hub = BuiltProducts.executable("checkin-hub")
        let serve = ["serve", "--db", db, "--port", "0", "--log-level", "warning", "--rate-limit", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if descriptorLimit != nil || umask != nil {
            // exec: the shell becomes the hub, so stop() signals the hub itself.
            let limits = (descriptorLimit.map { "ulimit -n \($0) && " } ?? "") + (umask.map { "umask \($0) && " } ?? "")
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", limits + #"exec "$0" "$@""#, hub.path] + serve
        } else {
            process.executableURL = hub
            process.arguments = serve
        }
        let out = Pipe()
        process.standardOutput = out
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        // The first line says where it listens.
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { throw ClusterError("checkin-hub serve exited before listening") }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self)
        guard let text = line.split(separator: ":").last?.split(separator: "\n").first, let port = Int(text) else {
            throw ClusterError("unexpected first line: \(line)")
        }
        self.port = port
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Signs in through the API; the new session's access token (also a valid `hub_session` cookie).
    func accessToken(_ email: String, _ password: String) async throws -> String {
        try await HubClient(base: base).post(HubPaths.signIn, SignInRequest(email: email, password: password), as: TokenPair.self).accessToken
    }

    /// Whether the process still runs (a trap would have ended it).
    var isRunning: Bool { process.isRunning }

    func stop() {
        process.terminate()  // SIGTERM: graceful shutdown
        process.waitUntilExit()
    }
}

/// A tiny JSON client over URLSession on loopback.
struct HubClient: Sendable {
    var base: String
    var token: String?

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 600  // 1,000 concurrent uploads queue behind 64 connections on a loaded CI machine
        return URLSession(configuration: configuration)
    }()

    func send(_ method: String, _ path: String, body: Data? = nil, token: String? = nil) async throws -> (status: Int, data: Data, headers: [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token = token ?? self.token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as! HTTPURLResponse
        return (http.statusCode, data, http.allHeaderFields)
    }

    func post<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, as: Answer.Type) async throws -> Answer {
        let (status, data, _) = try await send("POST", path, body: try HubJSON.encoder().encode(body))
        guard status == 200 else { throw ClusterError("POST \(path): \(status) \(String(decoding: data, as: UTF8.self))") }
        return try HubJSON.decoder().decode(Answer.self, from: data)
    }

    /// Sends a JSON-encoded body.
    func send<Body: Encodable>(_ method: String, _ path: String, json body: Body) async throws -> (status: Int, data: Data, headers: [AnyHashable: Any]) {
        try await send(method, path, body: try HubJSON.encoder().encode(body))
    }

    /// The problem document of an error answer.
    static func problem(_ data: Data) throws -> ProblemDocument { try HubJSON.decoder().decode(ProblemDocument.self, from: data) }

    func get<Answer: Decodable>(_ path: String, as: Answer.Type) async throws -> Answer {
        let (status, data, _) = try await send("GET", path)
        guard status == 200 else { throw ClusterError("GET \(path): \(status) \(String(decoding: data, as: UTF8.self))") }
        return try HubJSON.decoder().decode(Answer.self, from: data)
    }
}
