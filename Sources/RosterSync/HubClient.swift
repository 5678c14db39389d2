import CheckInCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HubAPI

/// Why a request to the hub did not give the expected answer.
public enum HubRequestError: Error, Sendable, Equatable {
    /// The hub answered with an error status (problem document when it sent one).
    case status(Int, ProblemDocument?, retryAfterSeconds: Int?)
    /// No answer: connection refused or reset, DNS, timeout.
    case transport(String)
    /// An answer that is not what the API promises (malformed or truncated JSON).
    case malformed(String)

    /// Worth retrying later with the same request (server trouble, network, garbage).
    public var isTransient: Bool {
        switch self {
        case .transport, .malformed: true
        case .status(let code, _, _): code >= 500 || code == 429 || code == 408
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
        }
    }
}

/// The hub's `/v1` API over HTTP, with Foundation's URLSession (no extra package: the station
/// build stays lean). Stateless apart from the URL session: tokens are passed per call.
public struct HubClient: Sendable {
    public let baseURL: URL
    let session: URLSession
    let download: BoundedDownload
    /// How far this station's clock is from the hub's, from the answers' `Date` headers.
    let serverClock = ServerClock()

    /// The largest answer read from the hub: a roster page of 5,000 guests with every field at
    /// its limit stays well below; anything larger is refused, not held in memory.
    public static let maximumAnswerBytes = 32 * 1024 * 1024

    /// - Parameter timeout: bound of every request (default 10 s).
    public init(baseURL: URL, timeout: Duration = .seconds(10), maximumAnswerBytes: Int = HubClient.maximumAnswerBytes) {
        self.baseURL = baseURL
        download = BoundedDownload(limit: maximumAnswerBytes)
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.httpMaximumConnectionsPerHost = 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
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
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            do { request.httpBody = try HubJSON.encoder().encode(body) } catch { throw .malformed("cannot encode the request: \(error)") }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let http: HTTPURLResponse
        do {
            (data, http) = try await download.fetch(request, on: session)
        } catch let tooLarge as BoundedDownload.TooLarge {
            throw .malformed("answer larger than \(tooLarge.limit) bytes, refused")
        } catch {
            throw .transport(Self.describe(error))
        }
        serverClock.observe(dateHeader: http.value(forHTTPHeaderField: "Date"))
        guard (200..<300).contains(http.statusCode) else {
            let problem = try? HubJSON.decoder().decode(ProblemDocument.self, from: data)
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            throw .status(http.statusCode, problem, retryAfterSeconds: retryAfter)
        }
        if Answer.self == Empty.self, let empty = Empty() as? Answer { return empty }
        do {
            return try HubJSON.decoder().decode(Answer.self, from: data)
        } catch {
            throw .malformed("\(path): \(error)".prefix(300).description)
        }
    }

    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorTimedOut: return "timed out"
            case NSURLErrorCannotConnectToHost: return "connection refused"
            case NSURLErrorNetworkConnectionLost: return "connection lost"
            case NSURLErrorCannotFindHost: return "unknown host"
            case NSURLErrorNotConnectedToInternet: return "no network"
            default: return "network error \(nsError.code)"
            }
        }
        return String(describing: error)
    }
}
