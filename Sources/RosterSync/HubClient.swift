import AsyncHTTPClient
import CheckInCore
import Foundation
import HTTPTransport
import HubAPI
import NIOCore
import NIOHTTP1
import NIOSSL

/// Why a request to the hub did not give the expected answer.
public enum HubRequestError: Error, Sendable, Equatable {
    /// The hub answered with an error status (problem document when it sent one).
    case status(Int, ProblemDocument?, retryAfterSeconds: Int?)
    /// No answer: connection refused or reset, DNS, timeout.
    case transport(String)
    /// An answer that is not what the API promises (malformed or truncated JSON).
    case malformed(String)
    /// The hub's HTTPS certificate did not verify against the trusted CAs (or not for its name).
    case untrusted(String)

    /// Worth retrying later with the same request (server trouble, network, garbage).
    public var isTransient: Bool {
        switch self {
        // Untrusted too: a hub's certificate gets renewed, a CA file replaced; retried on backoff.
        case .transport, .malformed, .untrusted: true
        case .status(let code, _, _): code >= 500 || code == 429 || code == 408
        }
    }

    /// The hub's words for a request that got no usable answer.
    init(_ failure: TransportFailure) {
        switch failure {
        case .unreachable(let reason): self = .transport(reason)
        case .untrusted(let reason): self = .untrusted(reason)
        case .tooLarge(let limit): self = .malformed("answer larger than \(limit) bytes, refused")
        }
    }

    /// Short text for logs and the operator (problem details are the hub's, sanitized).
    public var summary: String {
        switch self {
        case .status(let code, let problem, _):
            let detail = problem.map { Sanitized.text($0.detail ?? $0.title) }
            return "HTTP \(code)" + (detail.map { ": \($0)" } ?? "")
        case .transport(let reason): return Sanitized.text(reason)
        case .malformed(let reason): return "unexpected answer: " + Sanitized.text(reason)
        case .untrusted(let reason): return "certificate not trusted: " + Sanitized.text(reason)
        }
    }
}

/// The hub's `/v1` API over HTTP or HTTPS, with AsyncHTTPClient. Not URLSession: on Linux it
/// cannot take per-session trust roots, and a station must be able to trust only its hub's
/// private CA. Stateless apart from the clock skew: tokens are passed per call.
public struct HubClient: Sendable {
    public let baseURL: URL
    let timeout: Duration
    let download: BoundedDownload
    /// The TLS settings of an `https://` hub (trust roots from ``HTTPTransport/TransportPolicy``).
    let tls: TLSConfiguration?
    /// How far this station's clock is from the hub's, from the answers' `Date` headers.
    let serverClock = ServerClock()

    /// The largest answer read from the hub: a roster page of 5,000 guests with every field at
    /// its limit stays well below; anything larger is refused, not held in memory.
    public static let maximumAnswerBytes = 32 * 1024 * 1024

    /// - Parameters:
    ///   - timeout: bound of every request, answer included (default 10 s).
    ///   - policy: which addresses are allowed and which CA is trusted.
    /// - Throws: ``SyncError/insecureHubURL(_:)`` for plain HTTP to another machine the policy
    ///   refuses; ``SyncError/caFileUnreadable(path:reason:)`` for an unusable CA file.
    public init(baseURL: URL, timeout: Duration = .seconds(10), maximumAnswerBytes: Int = HubClient.maximumAnswerBytes,
                policy: TransportPolicy = TransportPolicy()) throws(SyncError) {
        do throws(TransportRefusal) { tls = try policy.tls(for: baseURL) } catch { throw SyncError(error) }
        self.baseURL = baseURL
        self.timeout = timeout
        download = BoundedDownload(limit: maximumAnswerBytes)
    }

    /// Parses and checks a hub URL given by the operator (`http(s)://host[:port]`).
    public static func parseHubURL(_ text: String) throws(SyncError) -> URL {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { throw .invalidHubURL(Sanitized.text(text)) }
        return url
    }

    // MARK: Endpoints

    public func health() async throws(HubRequestError) -> HealthResponse {
        try await send("GET", HubPaths.health, token: nil, body: Optional<SignInRequest>.none)
    }

    public func signIn(email: String, password: String) async throws(HubRequestError) -> TokenPair {
        try await send("POST", HubPaths.signIn, token: nil, body: SignInRequest(email: email, password: password))
    }

    public func refresh(refreshToken: String) async throws(HubRequestError) -> TokenPair {
        try await send("POST", HubPaths.refresh, token: nil, body: RefreshRequest(refreshToken: refreshToken))
    }

    public func signOut(token: String, refreshToken: String?) async throws(HubRequestError) {
        let _: Empty = try await send("POST", HubPaths.signOut, token: token, body: SignOutRequest(refreshToken: refreshToken))
    }

    public func registerStation(token: String, name: String, deviceID: String, deviceSecret: String) async throws(HubRequestError) -> StationRegistration {
        try await send("POST", HubPaths.stations, token: token,
                       body: StationRegistrationRequest(name: name, deviceID: deviceID, deviceSecret: deviceSecret))
    }

    public func events(token: String, range: EventRange) async throws(HubRequestError) -> EventList {
        try await send("GET", HubPaths.events, query: [("range", range.rawValue)], token: token, body: Optional<SignInRequest>.none)
    }

    /// - Parameter wait: seconds the hub may hold the request while nothing newer than `cursor`
    ///   exists (a long-poll: it answers at once when a change is committed); 0 answers at once.
    public func roster(token: String, event: String, cursor: Int64, limit: Int, wait: Int = 0) async throws(HubRequestError) -> RosterPage {
        var query = [("cursor", String(cursor)), ("limit", String(limit))]
        if wait > 0 { query.append(("wait", String(wait))) }
        return try await send("GET", HubPaths.roster(event: event), query: query, token: token, body: Optional<SignInRequest>.none)
    }

    public func stats(token: String, event: String) async throws(HubRequestError) -> EventStats {
        try await send("GET", HubPaths.stats(event: event), token: token, body: Optional<SignInRequest>.none)
    }

    public func upload(token: String, event: String, checkIns: CheckInBatch) async throws(HubRequestError) -> CheckInBatchResult {
        try await send("POST", HubPaths.checkIns(event: event), token: token, body: checkIns)
    }

    public func upload(token: String, event: String, walkIns: WalkInBatch) async throws(HubRequestError) -> WalkInBatchResult {
        try await send("POST", HubPaths.walkIns(event: event), token: token, body: walkIns)
    }

    public func upload(token: String, event: String, undos: UndoBatch) async throws(HubRequestError) -> UndoBatchResult {
        try await send("POST", HubPaths.undos(event: event), token: token, body: undos)
    }

    /// Sends the station's health report (204); a hub before this route answers 404.
    public func reportStation(token: String, event: String, deviceID: String, report: StationReport) async throws(HubRequestError) {
        let _: Empty = try await send("PUT", HubPaths.stationReport(event: event, deviceID: deviceID), token: token, body: report)
    }

    // MARK: Transport

    struct Empty: Decodable {}

    func send<Body: Encodable, Answer: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [], token: String?, body: Body?
    ) async throws(HubRequestError) -> Answer {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw .transport("bad hub URL")
        }
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + path
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        guard let url = components.url else { throw .transport("bad hub URL") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.tlsConfiguration = tls
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            do { request.body = .bytes(ByteBuffer(bytes: try HubJSON.encoder().encode(body))) } catch {
                throw .malformed("cannot encode the request: \(error)")
            }
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let answer: BoundedDownload.Answer
        do throws(TransportFailure) { answer = try await download.exchange(request, timeout: timeout, server: "hub") } catch {
            throw HubRequestError(error)
        }
        serverClock.observe(dateHeader: answer.headers.first(name: "Date"))
        let data = Data(answer.body.readableBytesView)
        guard (200..<300).contains(answer.status) else {
            let problem = try? HubJSON.decoder().decode(ProblemDocument.self, from: data)
            let retryAfter = answer.headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            throw .status(answer.status, problem, retryAfterSeconds: retryAfter)
        }
        if Answer.self == Empty.self, let empty = Empty() as? Answer { return empty }
        do {
            return try HubJSON.decoder().decode(Answer.self, from: data)
        } catch {
            throw .malformed("\(path): \(error)".prefix(300).description)
        }
    }
}
