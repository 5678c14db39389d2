import Foundation
import HubAPI

/// Throughput and request latencies of one phase.
struct RateFigures: Sendable {
    var items: Int
    var requests: Int
    var seconds: Double
    var latencies: [Double]

    var perSecond: Double { seconds > 0 ? Double(items) / seconds : 0 }
    func percentile(_ p: Double) -> Double {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[max(0, min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
    }
    var json: [String: Any] {
        ["items": items, "requests": requests, "seconds": seconds, "per_second": perSecond,
         "p50_ms": percentile(0.5) * 1000, "p99_ms": percentile(0.99) * 1000]
    }
}

struct RosterFigures: Sendable {
    var pages: Int
    var guests: Int
    var seconds: Double
    var guestIDs: [String]
}

struct IngestFigures: Sendable {
    var rate: RateFigures
    var statuses: [UploadStatus: Int]
}

struct ReplayFigures: Sendable {
    var seconds: Double
    var results: [CheckInResult]

    var statuses: [UploadStatus: Int] { results.reduce(into: [:]) { $0[$1.status, default: 0] += 1 } }
}

/// What `checkin-hub bench` prints.
struct BenchReport {
    var database: String
    var build: String
    var loadAverage: String
    var stations: Int
    var baseline: RateFigures
    var roster: RosterFigures
    var ingest: IngestFigures
    var replay: ReplayFigures
    var replayAgain: ReplayFigures
    var replayIdentical: Bool

    static var buildKind: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func counts(_ statuses: [UploadStatus: Int]) -> String {
        UploadStatus.allCases.map { "\($0.rawValue) \(statuses[$0] ?? 0)" }.joined(separator: ", ")
    }

    var text: String {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        let i = ingest.rate
        return """
            checkin-hub bench: \(database), \(build) build, hub child process + load generator on this machine, load average \(loadAverage)
            baseline  GET /v1/health x\(baseline.requests), \(stations) concurrent: \(f(baseline.perSecond, 0)) req/s, p50 \(f(baseline.percentile(0.5) * 1000)) ms, p99 \(f(baseline.percentile(0.99) * 1000)) ms
            roster    \(roster.guests) guests in \(roster.pages) pages: \(f(roster.seconds, 2)) s, \(f(Double(roster.pages) / roster.seconds)) pages/s, \(f(Double(roster.guests) / roster.seconds, 0)) guests/s
            ingest    \(i.items) check-ins, \(stations) stations, \(i.requests) batches: \(f(i.perSecond, 0)) check-ins/s (target ≥ 5000), p50 \(f(i.percentile(0.5) * 1000)) ms, p99 \(f(i.percentile(0.99) * 1000)) ms; \(Self.counts(ingest.statuses))
            replay    \(replay.results.count) queued check-ins, one station: \(f(replay.seconds, 2)) s (target ≤ 5 s); \(Self.counts(replay.statuses))
            replay 2  same \(replayAgain.results.count): \(f(replayAgain.seconds, 2)) s; \(Self.counts(replayAgain.statuses)); answers identical to the first: \(replayIdentical ? "yes" : "NO")
            """
    }

    var json: [String: Any] {
        [
            "database": database, "build": build, "load_average": loadAverage, "stations": stations,
            "baseline_health": baseline.json,
            "roster": ["guests": roster.guests, "pages": roster.pages, "seconds": roster.seconds, "pages_per_second": Double(roster.pages) / roster.seconds],
            "ingest": ingest.rate.json.merging(["statuses": ingest.statuses.reduce(into: [String: Int]()) { $0[$1.key.rawValue] = $1.value }]) { a, _ in a },
            "replay": ["items": replay.results.count, "seconds": replay.seconds, "statuses": replay.statuses.reduce(into: [String: Int]()) { $0[$1.key.rawValue] = $1.value }],
            "replay_again": ["items": replayAgain.results.count, "seconds": replayAgain.seconds, "identical": replayIdentical,
                             "statuses": replayAgain.statuses.reduce(into: [String: Int]()) { $0[$1.key.rawValue] = $1.value }],
        ]
    }
}
