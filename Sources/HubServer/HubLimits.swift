import Glibc

/// What one client, session or person may take of a hub process, so that nobody (signed in or
/// not) can make it unreachable for the stations and organizers: how long a request body may take
/// to arrive, how many connections are open at once (in all, and per client address), how many
/// live page streams are open (in all, per session and per staff member), and how often an
/// unknown e-mail's sign-in costs a password hash. Part of ``HubServerConfiguration``.
public struct HubLimits: Sendable, Equatable {
    /// Seconds a request body of up to ``smallBodyBytes`` may take to arrive complete, counted from
    /// its head; `nil`: the header timeout. A larger body gets this long plus its size at
    /// ``minimumBodyBytesPerSecond``, and must keep that pace all along.
    public var bodyTimeoutSeconds: Int64?
    /// The slowest a large body (a roster file, a batch of uploads) may arrive, on average, after
    /// the body timeout's grace.
    public var minimumBodyBytesPerSecond: Int
    /// Connections open at once (`nil`: from the process's descriptor limit, ``connectionCaps(descriptorLimit:)``).
    public var maximumConnections: Int?
    /// Connections open at once from one client address (an IPv6 address by its /64); a trusted
    /// proxy's connections are counted in the total only. `nil`: ``connectionCaps(descriptorLimit:)``.
    public var maximumConnectionsPerClient: Int?
    /// Live page streams held at once: the dashboards' own pool, apart from the stations' long-polls.
    public var maximumLiveStreams: Int
    public var liveStreamsPerSession: Int
    public var liveStreamsPerStaff: Int
    /// Wrong passwords for one account, from clients that never signed in to it, before such
    /// clients must wait (0: never); a client that signed in before is not held back by them.
    public var signInAccountFreeFailures: Int
    /// Sign-ins to e-mails of no account that are hashed (as a known account's would be), per
    /// second: beyond it they are refused after as long, without the hashing.
    public var unknownSignInsPerSecond: Double

    /// Bodies this small are forms, sign-ins and small uploads: the body timeout alone applies.
    public static let smallBodyBytes = 64 * 1024
    public static let defaultMinimumBodyBytesPerSecond = 16 * 1024
    public static let defaultMaximumLiveStreams = 500
    /// A few tabs, or a screen at the door and a laptop.
    public static let defaultLiveStreamsPerSession = 4
    public static let defaultLiveStreamsPerStaff = 8
    public static let defaultSignInAccountFreeFailures = 20
    public static let defaultUnknownSignInsPerSecond = 2.0

    public init(
        bodyTimeoutSeconds: Int64? = nil, minimumBodyBytesPerSecond: Int = HubLimits.defaultMinimumBodyBytesPerSecond,
        maximumConnections: Int? = nil, maximumConnectionsPerClient: Int? = nil,
        maximumLiveStreams: Int = HubLimits.defaultMaximumLiveStreams, liveStreamsPerSession: Int = HubLimits.defaultLiveStreamsPerSession,
        liveStreamsPerStaff: Int = HubLimits.defaultLiveStreamsPerStaff,
        signInAccountFreeFailures: Int = HubLimits.defaultSignInAccountFreeFailures,
        unknownSignInsPerSecond: Double = HubLimits.defaultUnknownSignInsPerSecond
    ) {
        self.bodyTimeoutSeconds = bodyTimeoutSeconds
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerClient = maximumConnectionsPerClient
        self.maximumLiveStreams = maximumLiveStreams
        self.liveStreamsPerSession = liveStreamsPerSession
        self.liveStreamsPerStaff = liveStreamsPerStaff
        self.signInAccountFreeFailures = signInAccountFreeFailures
        self.unknownSignInsPerSecond = unknownSignInsPerSecond
    }

    /// Descriptors kept for everything but client connections: the database's connections and
    /// files, the listening socket, the event loops, logs.
    static let reservedDescriptors = 64

    /// The connection caps when none is configured, from the process's open-file limit: every
    /// connection is a descriptor, and a process out of them cannot even accept one to refuse it.
    /// The total leaves ``reservedDescriptors`` (at most 16,384); one client gets at most half of
    /// it (at most 1,024: a venue's 200 stations behind one NAT address hold about 3 each).
    public static func connectionCaps(descriptorLimit: Int) -> (total: Int, perClient: Int) {
        let total = min(16_384, max(8, descriptorLimit - reservedDescriptors))
        return (total, min(1_024, max(1, total / 2)))
    }

    /// The process's soft open-file limit (`ulimit -n`).
    public static var descriptorLimit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(clamping: limit.rlim_cur)
    }

    /// The caps in force: the configured ones, else those of ``connectionCaps(descriptorLimit:)``.
    public func connections(descriptorLimit: Int = HubLimits.descriptorLimit) -> (total: Int, perClient: Int) {
        let derived = Self.connectionCaps(descriptorLimit: descriptorLimit)
        let total = maximumConnections ?? derived.total
        return (total, maximumConnectionsPerClient ?? min(derived.perClient, max(1, total / 2)))
    }
}
