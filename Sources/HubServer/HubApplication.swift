import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Settings of `checkin-hub serve`.
public struct HubServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var accessTokenSeconds: Int64
    public var refreshTokenSeconds: Int64
    /// Requests per second per client before 429 (0: unlimited).
    public var rateLimitPerSecond: Double
    /// How long after a refresh the session's previous refresh token is still accepted (and
    /// answered with a fresh pair) instead of revoking the session; 0 turns the grace off.
    public var refreshGraceSeconds: Int64
    /// Roster long-polls held at once by this process; beyond it they are answered at once
    /// (`Retry-After: 1`). Each costs a table entry and a few hundred bytes, no thread and no
    /// database connection: the bound protects against a flood, not against real stations.
    public var maximumHeldRequests: Int
    /// Follow the store's change reports (PostgreSQL LISTEN, SQLite's own commits); `false` polls
    /// each followed event once a second instead (a PostgreSQL behind a pooler that cannot LISTEN).
    public var followChangeReports: Bool
    /// Wrong passwords in a row before sign-in attempts for that account must wait (0: never).
    public var signInFreeFailures: Int
    /// The first of those waits, in seconds (doubling after each further failure).
    public var signInFirstWaitSeconds: Int
    /// A connection with nothing to answer that sends nothing for this long is closed: no
    /// request, or one sent halfway. A request being answered (a held long-poll) is not idle.
    public var idleTimeoutSeconds: Int64
    /// HTTPS with this certificate and key (``HubTLS/serverConfiguration(certificateFile:keyFile:)``);
    /// nil serves plain HTTP (loopback, or behind a TLS proxy).
    public var tls: HubTLSSettings?

    public static let defaultIdleTimeoutSeconds: Int64 = 30

    public static let defaultRefreshGraceSeconds: Int64 = 60
    public static let defaultMaximumHeldRequests = 1_000

    public init(
        host: String = "127.0.0.1", port: Int = 8080, accessTokenSeconds: Int64 = 900, refreshTokenSeconds: Int64 = 30 * 86_400,
        rateLimitPerSecond: Double = 500, refreshGraceSeconds: Int64 = HubServerConfiguration.defaultRefreshGraceSeconds,
        maximumHeldRequests: Int = HubServerConfiguration.defaultMaximumHeldRequests, followChangeReports: Bool = true,
        signInFreeFailures: Int = SignInThrottle.Limits().freeFailures, signInFirstWaitSeconds: Int = 1,
        idleTimeoutSeconds: Int64 = HubServerConfiguration.defaultIdleTimeoutSeconds, tls: HubTLSSettings? = nil
    ) {
        self.host = host
        self.port = port
        self.accessTokenSeconds = accessTokenSeconds
        self.refreshTokenSeconds = refreshTokenSeconds
        self.rateLimitPerSecond = rateLimitPerSecond
        self.refreshGraceSeconds = refreshGraceSeconds
        self.maximumHeldRequests = maximumHeldRequests
        self.followChangeReports = followChangeReports
        self.signInFreeFailures = signInFreeFailures
        self.signInFirstWaitSeconds = signInFirstWaitSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.tls = tls
    }
}

/// The hub's HTTP application: routes under `/v1`, every one but health, sign-in and refresh
/// behind a bearer token.
public struct HubRoutes: Sendable {
    let store: any HubStore
    let configuration: HubServerConfiguration
    let metrics: HubMetrics
    let limiter: RateLimiter
    let signInThrottle: SignInThrottle
    let logger: Logger
    /// Which events changed, for roster long-polls; runs as a service of the application.
    let feed: ChangeFeed

    public init(store: any HubStore, configuration: HubServerConfiguration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.metrics = HubMetrics()
        self.limiter = RateLimiter(perSecond: configuration.rateLimitPerSecond, burst: max(configuration.rateLimitPerSecond, 1) * 2)
        self.signInThrottle = SignInThrottle(limits: SignInThrottle.Limits(
            freeFailures: configuration.signInFreeFailures, firstWait: .seconds(configuration.signInFirstWaitSeconds)))
        self.logger = logger
        self.feed = ChangeFeed(source: store, maximumHeld: configuration.maximumHeldRequests, followReports: configuration.followChangeReports)
    }

    /// Builds the application; `onRunning` gets the bound port (useful with port 0).
    /// - Throws: when the TLS configuration cannot make a context (checked beforehand by ``HubTLS``).
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let router = Router(context: BasicRequestContext.self)
        add(to: router)
        // The idle timeout applies inside TLS as well: it is the HTTP channel's, which TLS wraps.
        let http1 = HTTPServerBuilder.http1(configuration: HTTP1Channel.Configuration(idleTimeout: .seconds(configuration.idleTimeoutSeconds)))
        let server = try configuration.tls.map { try $0.wrap(http1) } ?? http1
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "checkin-hub"),
            services: [feed],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    typealias Handler = @Sendable (Request, BasicRequestContext) async throws -> Response

    /// Wraps a handler: metrics, error mapping to problem documents, never a 500 for bad input.
    /// Requests for which `timed` is false (long-polls, whose time is mostly waiting) are counted
    /// but kept out of the latency histogram.
    func wrap(
        _ route: String, timed: @escaping @Sendable (Request) -> Bool = { _ in true }, _ handler: @escaping Handler
    ) -> @Sendable (Request, BasicRequestContext) async throws -> Response {
        { request, context in
            let start = ContinuousClock.now
            let response: Response
            do {
                response = try await handler(request, context)
            } catch let problem as HubProblem {
                response = try problem.response(from: request, context: context)
            } catch let error as HubStoreError {
                switch error {
                case .unknownEvent: response = try HubProblem.notFound.response(from: request, context: context)
                case .duplicateEvent, .duplicateStaff: response = try HubProblem(.conflict, "Conflict", detail: error.description).response(from: request, context: context)
                default:
                    logger.error("storage failed", metadata: ["route": "\(route)", "error": "\(error)"])
                    response = try HubProblem(.serviceUnavailable, "Storage unavailable", detail: "Retry later.").response(from: request, context: context)
                }
            } catch let error as any HTTPResponseError where error.status.code < 500 {
                response = try HubProblem(error.status, error.status.reasonPhrase).response(from: request, context: context)
            } catch {
                logger.error("request failed", metadata: ["route": "\(route)", "error": "\(String(reflecting: error))"])
                response = try HubProblem(.serviceUnavailable, "Temporarily unavailable", detail: "Retry later.").response(from: request, context: context)
            }
            let elapsed = ContinuousClock.now - start
            metrics.request(
                route: route, status: response.status.code,
                seconds: timed(request) ? Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds) : nil)
            return response
        }
    }

    func json<T: Encodable>(_ value: T) throws -> Response {
        let data = try HubJSON.encoder().encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request's JSON body, read up to `limit` bytes (413 beyond, saying `advice`).
    func body<T: Codable>(_ type: T.Type, _ request: Request, limit: Int = HubPaths.maximumBodyBytes,
                          advice: String = "send smaller batches") async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw HubProblem(.contentTooLarge, "Body too large", detail: "At most \(limit) bytes; \(advice).")
        }
        return try StrictJSON.decode(T.self, from: Data(buffer.readableBytesView))
    }

    /// The caller's session, or 401; 403 below `role`; 429 when flooding.
    func authenticate(_ request: Request, role: StaffRole = .staff) async throws -> AuthenticatedSession {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw HubProblem.unauthenticated }
        let token = String(header.dropFirst("Bearer ".count))
        guard let session = try await store.session(accessHash: Tokens.hash(token), now: .now()) else { throw HubProblem.unauthenticated }
        if let wait = limiter.take(session.sessionID) {
            var problem = HubProblem(.tooManyRequests, "Too many requests", detail: "Slow down; retry after \(wait) s.")
            problem.retryAfterSeconds = wait
            throw problem
        }
        guard session.staff.role >= role else { throw HubProblem.forbidden(role) }
        return session
    }

    func event(_ context: BasicRequestContext) async throws -> EventSummary {
        guard let id = context.parameters.get("event"), let event = try await store.event(id: id) else { throw HubProblem.notFound }
        return event
    }

    func newTokens(now: Timestamp) -> (access: String, refresh: String, hashes: NewTokens) {
        let access = Tokens.token(), refresh = Tokens.token()
        return (access, refresh, NewTokens(
            accessHash: Tokens.hash(access), accessExpires: now.adding(milliseconds: Self.milliseconds(seconds: configuration.accessTokenSeconds)),
            refreshHash: Tokens.hash(refresh), refreshExpires: now.adding(milliseconds: Self.milliseconds(seconds: configuration.refreshTokenSeconds))))
    }

    /// Seconds of a setting in milliseconds, saturating: no configured lifetime may trap a request.
    static func milliseconds(seconds: Int64) -> Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds > 0 ? .max : .min) : product
    }

    func checkBatchSize(_ count: Int) throws {
        guard count <= HubPaths.maximumBatchItems else {
            throw HubProblem.invalid("items", "At most \(HubPaths.maximumBatchItems) items per batch.")
        }
    }
}
