import CheckInCore
import Foundation
import KioskStore
import Logging
import QRScan
import RosterSync

/// `kiosk bench propagation`: how long after Door A commits an admission Door B knows of it.
///
/// Two stations (each its own data directory, store and sync engine, as `kiosk run` has them)
/// signed in to a real hub, or A to one hub process and B to another on the same PostgreSQL.
/// Each round A admits a guest and nudges its engine (what the check-in flow does); the time
/// runs from A's commit until B's own store shows the guest checked in. The baseline, in the
/// same run, is the interval pull alone (following off), as stations worked before.
public struct PropagationBenchmark: Sendable {
    public var hubA: DoorBenchmark.Hub
    /// Door B's hub (another process on the same database), or A's when nil.
    public var hubB: URL?
    public var rounds: Int
    /// Pause between rounds (also lets each round's upload and pull finish).
    public var spacing: Duration = .milliseconds(300)

    public init(hubA: DoorBenchmark.Hub, hubB: URL?, rounds: Int) {
        self.hubA = hubA
        self.hubB = hubB
        self.rounds = rounds
    }

    public struct Figures: Sendable {
        /// A's commit → B's store knows, milliseconds, one per round.
        public var milliseconds: [Double]
        /// Rounds whose admission B had not learned within the round's limit.
        public var missed: Int

        public func percentile(_ p: Double) -> Double { CorpusScore.percentile(milliseconds, p) }
    }

    /// Runs the baseline (interval pull only), then following on.
    public func run(logger: Logger) async throws -> (baseline: Figures, following: Figures) {
        var interval = SyncConfiguration()
        interval.followWait = .zero
        let baseline = try await runOnce(configuration: interval, logger: logger)
        let following = try await runOnce(configuration: SyncConfiguration(), logger: logger)
        return (baseline, following)
    }

    func runOnce(configuration: SyncConfiguration, logger: Logger) async throws -> Figures {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-propagation-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let doorA = try await Door.open(root.appendingPathComponent("a"), name: "Door A", hub: hubA.url, event: hubA, configuration: configuration, logger: logger)
        let doorB = try await Door.open(root.appendingPathComponent("b"), name: "Door B", hub: hubB ?? hubA.url, event: hubA, configuration: configuration,
                                        logger: logger)
        let loops = [Task { try await doorA.engine.run() }, Task { try await doorB.engine.run() }]
        defer { loops.forEach { $0.cancel() } }
        // Both doors have settled into their loops (B's follow request is waiting at the hub).
        try await Task.sleep(for: .seconds(1))

        let codes = try doorA.database.roster.codesNotCheckedIn(limit: rounds)
        guard codes.count >= rounds else {
            throw StationError.unusableInput("The event has \(codes.count) guests not checked in; the benchmark needs \(rounds).")
        }
        var figures = Figures(milliseconds: [], missed: 0)
        // Longer than the interval pull and an upload's backoff: a round that misses it is a miss.
        let limit = configuration.pullInterval * 3
        for code in codes {
            let result = try await doorA.database.desk.checkIn(CheckInRequest(rawCode: code, source: .scanner))
            let committed = ContinuousClock.now
            doorA.engine.nudge()
            // Each station has its own ids for the hub's guests: B looks the guest up by code.
            guard result.decision.letsGuestIn else { continue }
            while true {
                if (try? doorB.database.roster.guest(code: code))??.checkedIn != nil {
                    figures.milliseconds.append((ContinuousClock.now - committed).milliseconds)
                    break
                }
                if ContinuousClock.now - committed > limit {
                    figures.missed += 1
                    break
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            try await Task.sleep(for: spacing)
        }
        return figures
    }

    /// One station: its store and its sync engine, signed in, the event's roster downloaded.
    struct Door {
        let database: KioskDatabase
        let engine: SyncEngine

        static func open(_ directory: URL, name: String, hub: URL, event: DoorBenchmark.Hub, configuration: SyncConfiguration,
                         logger: Logger) async throws -> Door {
            let database = try KioskDatabase.open(dataDirectory: directory, key: .besideThrowawayStore(directory), logger: logger)
            let engine = try SyncEngine(database: database, configuration: configuration, logger: logger)
            _ = try await engine.signIn(hubURL: hub.absoluteString, email: event.email, password: event.password, stationName: name)
            _ = try await engine.use(event: event.event, pending: .keep)
            try await engine.syncNow()
            return Door(database: database, engine: engine)
        }
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
