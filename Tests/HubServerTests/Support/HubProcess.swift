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

    /// - Parameter environment: variables set (or replaced) for the hub only.
    init(db: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = BuiltProducts.executable("checkin-hub")
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.arguments = ["serve", "--db", db, "--port", "0", "--log-level", "warning", "--rate-limit", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
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
