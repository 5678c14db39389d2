import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

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
    /// Stations' roster long-polls held at once by this process; beyond it they are answered at
    /// once (`Retry-After: 1`). Each costs a table entry and a few hundred bytes, no thread and no
    /// database connection: the bound protects against a flood, not against real stations. Live
    /// page streams have their own places (``HubLimits/maximumLiveStreams``).
    public var maximumHeldRequests: Int
    /// Follow the store's change reports (PostgreSQL LISTEN, SQLite's own commits); `false` polls
    /// each followed event once a second instead (a PostgreSQL behind a pooler that cannot LISTEN).
    public var followChangeReports: Bool
    /// Wrong passwords in a row for one account from one client before that client's attempts
    /// for it must wait (0: never; ``SignInLockout``).
    public var signInFreeFailures: Int
    /// The first of those waits, in seconds (doubling after each further failure).
    public var signInFirstWaitSeconds: Int
    /// A connection with nothing to answer that sends nothing for this long is closed: no
    /// request, or one sent halfway. A request being answered (a held long-poll) is not idle.
    public var idleTimeoutSeconds: Int64
    /// A request head must arrive complete this long after the connection opens or the previous
    /// answer ends (``RequestTimeoutHandler``); the idle timeout alone lets it trickle for ever.
    public var headerTimeoutSeconds: Int64
    /// How long a session lasts at most, however often it is refreshed (stations warn 12 h before).
    public var sessionLifetimeSeconds: Int64
    /// Wrong passwords from one client address (any accounts) before its sign-ins must wait (0: never).
    public var signInClientFreeFailures: Int
    /// Proxies whose `X-Forwarded-For` is believed (``ClientAddress``); empty: the header is ignored.
    public var trustedProxies: Set<String>
    /// HTTPS with this certificate and key (``HubTLS/serverConfiguration(certificateFile:keyFile:)``);
    /// nil serves plain HTTP (loopback, or behind a TLS proxy).
    public var tls: HubTLSSettings?
    /// A station whose last report is older than this many seconds is listed as silent.
    public var stationSilentSeconds: Int64
    /// What one client, session or person may take of the process (bodies, connections, streams).
    public var limits: HubLimits

    public static let defaultIdleTimeoutSeconds: Int64 = 30
    /// A venue's staff share one address behind NAT: room for their typos, none for a guesser.
    public static let defaultSignInClientFreeFailures = 20

    public static let defaultRefreshGraceSeconds: Int64 = 60
    public static let defaultMaximumHeldRequests = 1_000
    /// Two minutes: a station reports every few seconds while it runs and reaches the hub.
    public static let defaultStationSilentSeconds: Int64 = 120

    public init(
        host: String = "127.0.0.1", port: Int = 8080, accessTokenSeconds: Int64 = 900, refreshTokenSeconds: Int64 = 30 * 86_400,
        rateLimitPerSecond: Double = 500, refreshGraceSeconds: Int64 = HubServerConfiguration.defaultRefreshGraceSeconds,
        maximumHeldRequests: Int = HubServerConfiguration.defaultMaximumHeldRequests, followChangeReports: Bool = true,
        signInFreeFailures: Int = SignInThrottle.Limits().freeFailures, signInFirstWaitSeconds: Int = 1,
        idleTimeoutSeconds: Int64 = HubServerConfiguration.defaultIdleTimeoutSeconds,
        signInClientFreeFailures: Int = HubServerConfiguration.defaultSignInClientFreeFailures, trustedProxies: Set<String> = [],
        sessionLifetimeSeconds: Int64 = NewSession.defaultLifetimeMilliseconds / 1000,
        headerTimeoutSeconds: Int64 = HubServerConfiguration.defaultIdleTimeoutSeconds, tls: HubTLSSettings? = nil,
        stationSilentSeconds: Int64 = HubServerConfiguration.defaultStationSilentSeconds, limits: HubLimits = HubLimits()
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
        self.signInClientFreeFailures = signInClientFreeFailures
        self.trustedProxies = trustedProxies
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.tls = tls
        self.stationSilentSeconds = stationSilentSeconds
        self.limits = limits
    }
}

/// The hub's HTTP application: routes under `/v1`, every one but health, sign-in and refresh
/// behind a bearer token.
public struct HubRoutes: Sendable {
    package let store: any HubStore
    package let configuration: HubServerConfiguration
    package let metrics: HubMetrics
    package let limiter: RateLimiter
    /// Who waits after wrong passwords: per account and client, per account, per client address.
    package let lockout: SignInLockout
    /// How often a sign-in to an e-mail of no account is hashed (``HubLimits/unknownSignInsPerSecond``).
    let unknownSignIns: RateLimiter
    /// Password hashing a bounded number at a time, off the cooperative pool, in lanes.
    package let hashing = HashingGate()
    /// Connections open, in all and per client address.
    let connections: ConnectionGate
    let connectionRefusals: RefusalLog
    package let logger: Logger
    /// Which events changed, for roster long-polls and live pages; runs as a service of the application.
    package let feed: ChangeFeed

    public init(store: any HubStore, configuration: HubServerConfiguration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.metrics = HubMetrics()
        self.limiter = RateLimiter(perSecond: configuration.rateLimitPerSecond, burst: max(configuration.rateLimitPerSecond, 1) * 2)
        let limits = configuration.limits, firstWait = Duration.seconds(configuration.signInFirstWaitSeconds)
        self.lockout = SignInLockout(
            pair: SignInThrottle.Limits(freeFailures: configuration.signInFreeFailures, firstWait: firstWait),
            account: SignInThrottle.Limits(freeFailures: limits.signInAccountFreeFailures, firstWait: firstWait, forgetAfter: .seconds(3_600)),
            client: SignInThrottle.Limits(freeFailures: configuration.signInClientFreeFailures, firstWait: firstWait, forgetAfter: .seconds(15 * 60)))
        self.unknownSignIns = RateLimiter(perSecond: limits.unknownSignInsPerSecond, burst: max(1, limits.unknownSignInsPerSecond * 2))
        let caps = limits.connections()
        self.connections = ConnectionGate(maximum: caps.total, maximumPerClient: caps.perClient, trustedProxies: configuration.trustedProxies)
        self.connectionRefusals = RefusalLog(logger: logger)
        self.logger = logger
        self.feed = ChangeFeed(source: store, maximumHeld: configuration.maximumHeldRequests, maximumStreams: limits.maximumLiveStreams,
                               followReports: configuration.followChangeReports)
    }

    /// Builds the application; `onRunning` gets the bound port (useful with port 0).
    /// - Parameter services: run in the application's group before its own (the change feed):
    ///   the group stops the server first, then its services in reverse order.
    /// - Parameter pages: served beside the API on the same address (the dashboard).
    /// - Throws: when the TLS configuration cannot make a context (checked beforehand by ``HubTLS``).
    public func application(services: [any Service] = [], pages: [any HubPages] = [],
                            onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let router = Router(context: HubRequestContext.self)
        add(to: router)
        for routes in pages { routes.add(to: router) }
        // The idle and header timeouts apply inside TLS as well: they are the HTTP channel's, which TLS wraps.
        let http1 = HTTPServerBuilder.http1(configuration: http1Configuration)
        let server = try configuration.tls.map { try $0.wrap(http1) } ?? http1
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "checkin-hub"),
            services: services + [feed],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// On every connection: the connection caps, then the idle, header and body timeouts.
    var http1Configuration: HTTP1Channel.Configuration {
        let headerTimeout = TimeAmount.seconds(configuration.headerTimeoutSeconds)
        let pace = BodyPace(grace: .seconds(configuration.limits.bodyTimeoutSeconds ?? configuration.headerTimeoutSeconds),
                            minimumBytesPerSecond: configuration.limits.minimumBodyBytesPerSecond)
        let connections = connections, refusals = connectionRefusals
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                ConnectionLimitHandler(gate: connections, refusals: refusals), RequestTimeoutHandler(headerTimeout: headerTimeout, pace: pace),
            ],
            idleTimeout: .seconds(configuration.idleTimeoutSeconds))
    }

    package typealias Handler = @Sendable (Request, HubRequestContext) async throws -> Response

    /// Wraps a handler: metrics, error mapping to problem documents, never a 500 for bad input.
    /// Requests for which `timed` is false (long-polls, whose time is mostly waiting) are counted
    /// but kept out of the latency histogram.
    func wrap(
        _ route: String, timed: @escaping @Sendable (Request) -> Bool = { _ in true }, _ handler: @escaping Handler
    ) -> Handler {
        { request, context in
            let start = ContinuousClock.now
            let response: Response
            do {
                response = try await handler(request, context)
            } catch {
                response = try HubProblem.answering(error, route: route, logger: logger).response(from: request, context: context)
            }
            let elapsed = ContinuousClock.now - start
            metrics.request(
                route: route, status: response.status.code,
                seconds: timed(request) ? Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds) : nil)
            return response
        }
    }

    /// The access layer for a group of routes (``AccessMiddleware``).
    func access(_ access: RouteAccess) -> AccessMiddleware {
        AccessMiddleware(access: access, sessions: store, events: store, limiter: limiter, metrics: metrics, logger: logger)
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

    /// A fresh token pair; neither outlives `sessionEnds` (the session's absolute end). The access
    /// token lasts `accessSeconds` (the configured lifetime when `nil`; the dashboard's cookie
    /// session has no refresh and asks for longer).
    func newTokens(now: Timestamp, sessionEnds: Timestamp? = nil, accessSeconds: Int64? = nil) -> (access: String, refresh: String, hashes: NewTokens) {
        let access = Tokens.token(), refresh = Tokens.token()
        let end = sessionEnds ?? Timestamp(milliseconds: .max)
        return (access, refresh, NewTokens(
            accessHash: Tokens.hash(access), accessExpires: min(now.adding(milliseconds: Self.milliseconds(seconds: accessSeconds ?? configuration.accessTokenSeconds)), end),
            refreshHash: Tokens.hash(refresh), refreshExpires: min(now.adding(milliseconds: Self.milliseconds(seconds: configuration.refreshTokenSeconds)), end)))
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
