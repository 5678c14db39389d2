import Synchronization

/// Counters for the Prometheus endpoint, per process (each hub behind a load balancer is
/// scraped on its own; nothing here affects decisions).
public final class HubMetrics: Sendable {
    private struct State {
        var requests: [String: Int] = [:]
        var checkIns: [String: Int] = [:]
        var latencyBuckets: [Int] = Array(repeating: 0, count: HubMetrics.buckets.count)
        var latencySum: Double = 0
        var latencyCount = 0
        var signInsRefused = 0
    }

    static let buckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
    private let state = Mutex(State())

    public init() {}

    /// Counts a request; `seconds` goes into the latency histogram unless `nil`.
    package func request(route: String, status: Int, seconds: Double?) {
        state.withLock { state in
            state.requests["route=\"\(route)\",status=\"\(status)\"", default: 0] += 1
            guard let seconds else { return }
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { state.latencyBuckets[index] += 1 }
            state.latencySum += seconds
            state.latencyCount += 1
        }
    }

    /// A wrong e-mail or password (throttled attempts are counted as 429 requests).
    func signInRefused() {
        state.withLock { $0.signInsRefused += 1 }
    }

    func checkIns(_ status: String, count: Int) {
        state.withLock { $0.checkIns[status, default: 0] += count }
    }

    /// Prometheus text exposition format, with the change feed's and the connections' gauges when given.
    func render(feed: ChangeFeed? = nil, connections: ConnectionGate? = nil) -> String {
        var text = render()
        if let connections {
            let load = connections.load
            text += "# TYPE checkin_hub_connections gauge\ncheckin_hub_connections \(load.open)\n"
            text += "# TYPE checkin_hub_connection_clients gauge\ncheckin_hub_connection_clients \(load.clients)\n"
        }
        if let feed {
            text += "# TYPE checkin_hub_held_requests gauge\ncheckin_hub_held_requests \(feed.held)\n"
            text += "# TYPE checkin_hub_live_streams gauge\ncheckin_hub_live_streams \(feed.heldStreams)\n"
            text += "# TYPE checkin_hub_change_reports_complete gauge\ncheckin_hub_change_reports_complete \(feed.reportsAreComplete ? 1 : 0)\n"
        }
        return text
    }

    /// Prometheus text exposition format.
    public func render() -> String {
        state.withLock { state in
            var text = "# TYPE checkin_hub_requests_total counter\n"
            for (labels, value) in state.requests.sorted(by: { $0.key < $1.key }) { text += "checkin_hub_requests_total{\(labels)} \(value)\n" }
            text += "# TYPE checkin_hub_check_ins_total counter\n"
            for status in ["accepted", "duplicate", "rejected"] {
                text += "checkin_hub_check_ins_total{status=\"\(status)\"} \(state.checkIns[status] ?? 0)\n"
            }
            text += "# TYPE checkin_hub_sign_ins_refused_total counter\ncheckin_hub_sign_ins_refused_total \(state.signInsRefused)\n"
            text += "# TYPE checkin_hub_request_seconds histogram\n"
            for (index, bound) in Self.buckets.enumerated() {
                text += "checkin_hub_request_seconds_bucket{le=\"\(bound)\"} \(state.latencyBuckets[index])\n"
            }
            text += "checkin_hub_request_seconds_bucket{le=\"+Inf\"} \(state.latencyCount)\n"
            text += "checkin_hub_request_seconds_sum \(state.latencySum)\n"
            text += "checkin_hub_request_seconds_count \(state.latencyCount)\n"
            return text
        }
    }
}

/// A per-client token bucket: a client (a session, or an address before sign-in) that floods
/// gets 429 with `Retry-After`. Per process, so N hubs allow N times the rate; it protects the
/// database, it decides nothing.
public final class RateLimiter: Sendable {
    private let state = Mutex([String: (tokens: Double, at: ContinuousClock.Instant)]())
    let perSecond: Double
    let burst: Double

    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// `nil` when allowed, else the seconds to wait.
    package func take(_ client: String) -> Int? {
        guard perSecond > 0 else { return nil }
        let now = ContinuousClock.now
        return state.withLock { buckets in
            var bucket = buckets[client] ?? (burst, now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * perSecond)
            bucket.at = now
            defer { buckets[client] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            if buckets.count > 100_000 { buckets.removeAll(keepingCapacity: true) }
            // Capped before the conversion: a tiny configured rate would make the wait too large
            // for an Int (a trap), and nobody waits longer than a day anyway.
            return max(1, Int(min((1 - bucket.tokens) / perSecond, 86_400)) + 1)
        }
    }
}
