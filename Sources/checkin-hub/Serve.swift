import ArgumentParser
import CheckInHub
import Foundation
import HubServer
import Hummingbird
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate the database, then serve the /v1 API and the web dashboard until SIGTERM or SIGINT.",
        discussion: """
            Serves, on the same address and port, the stations' /v1 API and the organizers' web dashboard: open \
            http://HOST:PORT/ in a browser and sign in (/signin) with a staff account (checkin-hub staff add --role organizer). \
            Prints 'listening on HOST:PORT' on stdout once it accepts requests (with --port 0, the port chosen).
            """)

    @Option(help: "sqlite:PATH or postgres://USER@HOST:PORT/DATABASE")
    var db: String
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"
    @Option(help: "Port (0: any free port).")
    var port = 8080
    @Option(help: "Requests per second per client before answering 429 (0: no limit).")
    var rateLimit: Double = 500
    @Option(help: "Access token lifetime in seconds.")
    var accessTokenSeconds: Int64 = 900
    @Option(help: "Seconds after a refresh in which the previous refresh token still works (answered with a fresh pair, not revoked); 0: off.")
    var refreshGraceSeconds: Int64 = HubServerConfiguration.defaultRefreshGraceSeconds
    @Option(help: "Stations' roster long-polls held at once; more are answered at once with Retry-After: 1. Live pages have their own (--max-live-streams).")
    var maxHeldRequests = HubServerConfiguration.defaultMaximumHeldRequests
    @Option(help: "Live page streams held at once (the dashboards' own places, apart from the stations' long-polls); more are asked to come back in 2 s.")
    var maxLiveStreams = HubLimits.defaultMaximumLiveStreams
    @Option(help: "Live page streams one sign-in may hold open at once; more are answered 429.")
    var liveStreamsPerSession = HubLimits.defaultLiveStreamsPerSession
    @Option(help: "Live page streams one staff member may hold open at once over all their sign-ins; more are answered 429.")
    var liveStreamsPerStaff = HubLimits.defaultLiveStreamsPerStaff
    @Option(help: "Wrong passwords in a row for one account from one client before that client's sign-ins to it must wait (1 s, doubling up to 5 min; 429 with Retry-After); 0: never.")
    var signInFreeFailures = SignInThrottle.Limits().freeFailures
    @Option(help: "Wrong passwords for one account from clients that never signed in to it before such clients must wait (as above); browsers and stations that signed in before are not held back. 0: never.")
    var signInAccountFreeFailures = HubLimits.defaultSignInAccountFreeFailures
    @Option(help: "Sign-ins to e-mails of no account hashed per second (a decoy, as long as a real one); beyond it they take as long without hashing, so they cannot crowd out real sign-ins. 0: no limit.")
    var unknownSignInsPerSecond = HubLimits.defaultUnknownSignInsPerSecond
    @Option(help: "Seconds the first of those waits lasts; each further wrong password doubles it, up to 5 min.")
    var signInFirstWaitSeconds = 1
    @Option(help: "Seconds a connection may send nothing while it has nothing being answered (no request, or half a request) before it is closed.")
    var idleTimeoutSeconds = HubServerConfiguration.defaultIdleTimeoutSeconds
    @Option(help: "Seconds a request's head (its line and headers) may take to arrive, from the connection's start or the previous answer's end.")
    var headerTimeoutSeconds = HubServerConfiguration.defaultIdleTimeoutSeconds
    @Option(help: "Seconds a request body of up to 64 KiB may take to arrive once its head has (default: --header-timeout-seconds); a larger one gets this and must then keep --minimum-body-bytes-per-second.")
    var bodyTimeoutSeconds: Int64?
    @Option(help: "The slowest average pace, in bytes per second, at which a large body (a roster file) may arrive after the body timeout; slower connections are cut.")
    var minimumBodyBytesPerSecond = HubLimits.defaultMinimumBodyBytesPerSecond
    @Option(help: "Connections open at once; more are refused at once (503). Default: the open-file limit (ulimit -n) less 64, at most 16384.")
    var maxConnections: Int?
    @Option(help: "Connections open at once from one client address (an IPv6 client by its /64; a --trusted-proxy's count in the total only); more are refused at once (503). Default: half of --max-connections, at most 1024 (about 3 per station behind one NAT address).")
    var maxConnectionsPerClient: Int?
    @Option(help: "Wrong passwords from one client address, on any accounts, before its sign-ins must wait (as for one account); 0: never.")
    var signInClientFreeFailures = HubServerConfiguration.defaultSignInClientFreeFailures
    @Option(help: "Address of a reverse proxy whose X-Forwarded-For is believed for the client's address; repeat for several. Without it the header is ignored.")
    var trustedProxy: [String] = []
    @Option(help: "Seconds a session lasts at most, however often it is refreshed (default 7 days); stations warn 12 h before it ends.")
    var sessionLifetimeSeconds: Int64 = NewSession.defaultLifetimeMilliseconds / 1_000
    @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this PEM certificate (leaf first, then intermediates); needs --tls-key.")
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
    var tlsKey: String?
    @Option(name: .customLong("db-password-file"), help: "Read the PostgreSQL password from this file's first line (else the file in $CHECKIN_HUB_DB_PASSWORD_FILE, else $PGPASSWORD): never put it in --db, where ps shows it.")
    var dbPasswordFile: String?
    @Flag(help: "Learn of changes by polling each followed event once a second instead of PostgreSQL LISTEN/NOTIFY (for a pooler that cannot LISTEN).")
    var pollChanges = false
    @Option(help: "Seconds without a health report after which GET /v1/events/{event}/stations lists a station as silent.")
    var stationSilentSeconds = HubServerConfiguration.defaultStationSilentSeconds
    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel = "info"

    func validate() throws {
        guard (1...31_536_000).contains(accessTokenSeconds) else { throw ValidationError("--access-token-seconds must be 1 to 31536000 (a year).") }
        guard (0...3_600).contains(refreshGraceSeconds) else { throw ValidationError("--refresh-grace-seconds must be 0 to 3600.") }
        guard rateLimit >= 0, rateLimit.isFinite else { throw ValidationError("--rate-limit must be 0 (no limit) or a positive number.") }
        guard (1...3_600).contains(headerTimeoutSeconds) else { throw ValidationError("--header-timeout-seconds must be 1 to 3600.") }
        guard (1...3_600).contains(idleTimeoutSeconds) else { throw ValidationError("--idle-timeout-seconds must be 1 to 3600.") }
        guard (1...300).contains(signInFirstWaitSeconds) else { throw ValidationError("--sign-in-first-wait-seconds must be 1 to 300.") }
        guard (10...31_536_000).contains(sessionLifetimeSeconds) else { throw ValidationError("--session-lifetime-seconds must be 10 to 31536000 (a year).") }
        guard (0...10_000).contains(signInClientFreeFailures) else { throw ValidationError("--sign-in-client-free-failures must be 0 (never wait) to 10000.") }
        guard (0...1_000).contains(signInFreeFailures) else { throw ValidationError("--sign-in-free-failures must be 0 (never wait) to 1000.") }
        guard (0...100_000).contains(maxHeldRequests) else { throw ValidationError("--max-held-requests must be 0 (never hold) to 100000.") }
        guard (1...604_800).contains(stationSilentSeconds) else { throw ValidationError("--station-silent-seconds must be 1 to 604800 (a week).") }
        guard bodyTimeoutSeconds.map({ (1...3_600).contains($0) }) ?? true else { throw ValidationError("--body-timeout-seconds must be 1 to 3600.") }
        guard (1...1_000_000_000).contains(minimumBodyBytesPerSecond) else { throw ValidationError("--minimum-body-bytes-per-second must be 1 to 1000000000.") }
        guard maxConnections.map({ (1...1_000_000).contains($0) }) ?? true else { throw ValidationError("--max-connections must be 1 to 1000000.") }
        guard maxConnectionsPerClient.map({ (1...1_000_000).contains($0) }) ?? true else { throw ValidationError("--max-connections-per-client must be 1 to 1000000.") }
        guard (0...100_000).contains(maxLiveStreams) else { throw ValidationError("--max-live-streams must be 0 (no live updates) to 100000.") }
        guard (1...1_000).contains(liveStreamsPerSession), (1...10_000).contains(liveStreamsPerStaff) else {
            throw ValidationError("--live-streams-per-session must be 1 to 1000, --live-streams-per-staff 1 to 10000.")
        }
        guard (0...10_000).contains(signInAccountFreeFailures) else { throw ValidationError("--sign-in-account-free-failures must be 0 (never wait) to 10000.") }
        guard unknownSignInsPerSecond >= 0, unknownSignInsPerSecond.isFinite else { throw ValidationError("--unknown-sign-ins-per-second must be 0 (no limit) or a positive number.") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together: give both to serve HTTPS, or neither.") }
    }

    /// What one client, session or person may take of the hub.
    var limits: HubLimits {
        HubLimits(bodyTimeoutSeconds: bodyTimeoutSeconds, minimumBodyBytesPerSecond: minimumBodyBytesPerSecond,
                  maximumConnections: maxConnections, maximumConnectionsPerClient: maxConnectionsPerClient,
                  maximumLiveStreams: maxLiveStreams, liveStreamsPerSession: liveStreamsPerSession, liveStreamsPerStaff: liveStreamsPerStaff,
                  signInAccountFreeFailures: signInAccountFreeFailures, unknownSignInsPerSecond: unknownSignInsPerSecond)
    }

    func run() async throws {
        var logger = Logger(label: "checkin-hub")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var tls: HubTLSSettings?
        if let tlsCert, let tlsKey {
            do { tls = try HubTLS.serverConfiguration(certificateFile: tlsCert, keyFile: tlsKey) } catch { throw ValidationError(error.description) }
        }
        let server = HubServerConfiguration(
            host: host, port: port, accessTokenSeconds: accessTokenSeconds, rateLimitPerSecond: rateLimit,
            refreshGraceSeconds: refreshGraceSeconds, maximumHeldRequests: maxHeldRequests, followChangeReports: !pollChanges,
            signInFreeFailures: signInFreeFailures, signInFirstWaitSeconds: signInFirstWaitSeconds, idleTimeoutSeconds: idleTimeoutSeconds,
            signInClientFreeFailures: signInClientFreeFailures, trustedProxies: Set(trustedProxy),
            sessionLifetimeSeconds: sessionLifetimeSeconds, headerTimeoutSeconds: headerTimeoutSeconds, tls: tls,
            stationSilentSeconds: stationSilentSeconds, limits: limits)
        let host = self.host
        let configuration = HubServeConfiguration(database: db, databasePasswordFile: dbPasswordFile, server: server)
        let app = try await Self.mappingOptionErrors {
            try await buildApplication(configuration: configuration, logger: logger) { port in
                FileHandle.standardOutput.write(Data("listening on \(host):\(port)\n".utf8))
            }
        }
        // Graceful shutdown on SIGTERM and SIGINT (ServiceLifecycle's defaults); the store closes last.
        try await app.runService()
    }

    /// A `--db` the hub cannot open is the operator's to correct: usage, not a crash.
    private static func mappingOptionErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as HubDatabaseOptionError {
            throw ValidationError(error.description)
        }
    }
}
