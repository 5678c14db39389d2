import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import Logging
import PretixClient
import PretixSync
import PrintSpooler
import QRScan
import RosterCSV
import RosterSync
import ServiceLifecycle

/// `kiosk bench door`: the real station (its flow, durable print queue, sync engine and health
/// services, in process, over real SQLite; a real CUPS queue and a real hub when given) with
/// attendees arriving at a steady rate and the venue's faults played on a schedule, next to a
/// baseline run with no faults in the same invocation.
public struct DoorBenchmark: Sendable {
    /// A fault and when it happens, in seconds from the first attendee.
    public struct Fault: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable, CaseIterable {
            /// The printer stops answering (unplugged): the queue holds the badges.
            case printerDown = "printer-down"
            /// The CUPS queue is paused (`cupsdisable`), then enabled again.
            case printerPaused = "printer-paused"
            /// The printer of a private CUPS rig (Kiosk/cups-test-rig.sh) runs out of labels.
            case printerOutOfMedia = "printer-out-of-media"
            /// The rig's printer is killed mid-job, then started again.
            case printerKilled = "printer-killed"
            /// The hub's connections are reset (the venue network is down).
            case hubDown = "hub-down"
            /// Every hub answer is held back (`slow`, default 2 s).
            case hubSlow = "hub-slow"
            /// pretix's connections are reset (pretix or the venue network is down).
            case pretixDown = "pretix-down"
            /// Every pretix answer is held back 2 s.
            case pretixSlow = "pretix-slow"
            /// pretix answers every request with HTTP 500.
            case pretixFailing = "pretix-500"
        }

        public var kind: Kind
        public var start: Double
        public var duration: Double
        /// For `hub-slow`: how long each answer is held back.
        public var delay: Duration = .seconds(2)

        /// Parses `KIND@START+DURATION` (seconds), e.g. `printer-down@5+20`.
        public init?(_ text: String) {
            let parts = text.split(separator: "@", maxSplits: 1)
            guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])) else { return nil }
            let times = parts[1].split(separator: "+", maxSplits: 1).compactMap { Double($0) }
            guard times.count == 2, times[0] >= 0, times[1] > 0 else { return nil }
            (self.kind, start, duration) = (kind, times[0], times[1])
        }

        public var description: String { "\(kind.rawValue)@\(start)+\(duration)" }
    }

    public struct Hub: Sendable {
        public var url: URL
        public var email: String
        public var password: String
        public var event: String

        public init(url: URL, email: String, password: String, event: String) {
            self.url = url
            self.email = email
            self.password = password
            self.event = event
        }
    }

    /// A pretix check-in list to sync with instead of a hub: the device of a station connected
    /// with `kiosk pretix connect`, its event and list. Each run connects a throwaway store as
    /// that device through the fault proxy and downloads the list's orders.
    public struct Pretix: Sendable {
        public var server: URL
        public var device: PretixDevice
        public var event: String
        public var list: Int

        public init(server: URL, device: PretixDevice, event: String, list: Int) {
            self.server = server
            self.device = device
            self.event = event
            self.list = list
        }
    }

    public var attendees: Int
    /// Attendees per second.
    public var rate: Double
    /// A CUPS queue; a folder of PDFs when `nil`.
    public var printerQueue: String?
    public var hub: Hub?
    public var pretix: Pretix?
    public var faults: [Fault]
    public var printTimeout: Duration = .seconds(20)
    /// A private CUPS rig's directory (Kiosk/cups-test-rig.sh), for the faults only a simulated
    /// printer can play: out of labels, killed mid-job.
    public var cupsRig: URL?
    /// With the local roster: every other attendee holds a signed ticket (pretix's `pretix_sig1`)
    /// the station has no order for, verified at the door (``SignedTicketsBench``).
    public var signedTickets = false

    public init(attendees: Int, rate: Double, printerQueue: String?, hub: Hub?, faults: [Fault]) {
        self.attendees = attendees
        self.rate = rate
        self.printerQueue = printerQueue
        self.hub = hub
        self.faults = faults
    }

    /// What one run measured.
    public struct Figures: Sendable {
        /// Code received → feedback event, milliseconds.
        public var feedbackMilliseconds: [Double]
        /// The same for the signed tickets alone and the roster's tickets alone (``signedTickets``).
        public var signedFeedbackMilliseconds: [Double] = []
        public var rosterFeedbackMilliseconds: [Double] = []
        public var admitted: Int
        public var printed: Int
        /// Badges not printed (held, waiting, at the desk) when the attendees stopped coming, and
        /// after a settling time.
        public var badgesWaiting: Int
        public var uploadsPending: Int
        /// How long after the last attendee was answered and the last fault ended the outbox was
        /// empty: the station caught up with its source; `nil` when it had not within a minute.
        public var caughtUpSeconds: Double?
        public var seconds: Double

        public func percentile(_ p: Double) -> Double { CorpusScore.percentile(feedbackMilliseconds, p) }
    }

    /// Runs the baseline (no faults), then the same arrivals with the faults.
    public func run(logger: Logger) async throws -> (baseline: Figures, faulted: Figures) {
        let baseline = try await runOnce(faults: [], round: 0, logger: logger)
        let faulted = try await runOnce(faults: faults, round: 1, logger: logger)
        return (baseline, faulted)
    }

    /// - Parameter round: with pretix, which of the device's guests this run presents: both runs
    ///   are the same device, whose own check-ins a new store does not take back from pretix.
    func runOnce(faults: [Fault], round: Int, logger: Logger) async throws -> Figures {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-door-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let database = try KioskDatabase.open(dataDirectory: root.appendingPathComponent("data"), key: .besideThrowawayStore(root.appendingPathComponent("data")),
                                              logger: logger)

        // The hub, through a proxy that plays its faults; or a local roster of generated guests.
        var proxy: FaultProxy?
        var sync: SyncEngine?
        var pretixSync: PretixSync?
        var codes: [String]
        var signedCodes: Set<String> = []
        if let pretix {
            let faultProxy = try FaultProxy(upstreamPort: UInt16(pretix.server.port ?? 80))
            proxy = faultProxy
            let server = "http://127.0.0.1:\(faultProxy.port)\(pretix.server.path)"
            try PretixLinkFile<PretixDeviceRecord>(database: database).save(PretixDeviceRecord(server: server, device: pretix.device))
            let link = try await PretixSync.connect(database: database, server: server, token: nil, event: pretix.event, list: pretix.list,
                                                    identity: .thisStation)
            let engine = PretixSync(database: database, link: link, logger: logger)
            _ = try await engine.pull()
            pretixSync = engine
            codes = Array(try database.roster.codesNotCheckedIn(limit: attendees * (round + 1)).dropFirst(attendees * round))
        } else if let hub {
            let faultProxy = try FaultProxy(upstreamPort: UInt16(hub.url.port ?? 80))
            proxy = faultProxy
            let engine = try SyncEngine(database: database)
            _ = try await engine.signIn(hubURL: "http://127.0.0.1:\(faultProxy.port)", email: hub.email, password: hub.password, stationName: "Bench door")
            _ = try await engine.use(event: hub.event, pending: .keep)
            try await engine.syncNow()
            sync = engine
            codes = try database.roster.codesNotCheckedIn(limit: attendees)
        } else if signedTickets {
            let bench = try await SignedTicketsBench.prepare(database, attendees: attendees, logger: logger)
            pretixSync = bench.door
            codes = bench.codes
            signedCodes = bench.signed
        } else {
            let csv = "code,name,company\n" + (0..<attendees).map { "BENCH-\($0),Attendee \($0),Bench Co" }.joined(separator: "\n") + "\n"
            _ = try await database.roster.importRoster(try RosterCSVParser.parse(Data(csv.utf8)))
            codes = (0..<attendees).map { "BENCH-\($0)" }
        }
        guard codes.count >= attendees else {
            throw StationError.unusableInput("The event has \(codes.count) guests; the benchmark needs \(attendees) who are not checked in yet.")
        }

        let primary: any BadgeOutput = printerQueue.map { CupsOutput(queue: $0, cups: CupsClient()) }
            ?? PDFFolderOutput(folder: root.appendingPathComponent("badges"))
        let output = FaultInjectingOutput(primary)
        let queue = PrintQueue(database: database, primary: output, failover: nil,
                               configuration: PrintQueueConfiguration(printTimeout: printTimeout), logger: logger)
        let printing = QueuePrinting(queue: queue, database: database, name: "bench:\(primary.queue)", queueName: primary.queue)
        let runtime = StationRuntime(database: database, printing: printing, sync: sync,
                                     badgeRequest: BadgeRequest(policy: .onAdmission, queue: primary.queue),
                                     health: StationHealth(printer: PrinterCondition(state: .ready, name: printing.name)), pretix: pretixSync,
                                     logger: logger)
        let driver = ArrivalDriver(runtime: runtime, codes: Array(codes.prefix(attendees)), rate: rate, faults: faults, output: output, proxy: proxy,
                                   cups: printerQueue.map { CupsFaults(queue: $0, rig: cupsRig) }, uploadsGoSomewhere: !signedTickets)

        typealias Configured = ServiceGroupConfiguration.ServiceConfiguration
        var services: [Configured] = [
            Configured(service: EventsEndService(runtime: runtime), serviceName: "events"),
            Configured(service: driver, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "arrivals"),
            Configured(service: PrintNewsService(printing: printing, runtime: runtime), serviceName: "print news"),
            Configured(service: printing, serviceName: "print queue"),
        ]
        if let pretixSync {
            services.append(Configured(service: PretixSyncService(sync: pretixSync, runtime: runtime, logger: logger), serviceName: "pretix sync"))
        }
        if let sync {
            services.append(Configured(service: HubWatchService(engine: sync, runtime: runtime), serviceName: "hub status"))
            services.append(Configured(service: sync, serviceName: "sync"))
        }
        services.append(Configured(service: FlowService(runtime: runtime), serviceName: "check-in flow"))
        let started = ContinuousClock.now
        try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger)).run()
        proxy?.stop()

        let jobs = try await database.printJobs.unfinishedPrintJobs()
        let printed = try await database.printJobs.printJobCount(.printed)
        var figures = Figures(feedbackMilliseconds: await driver.latencies.values, admitted: await driver.latencies.admitted, printed: printed,
                              badgesWaiting: jobs.count, uploadsPending: try database.outbox.pendingCount(), caughtUpSeconds: await driver.caughtUp.value,
                              seconds: (ContinuousClock.now - started).seconds)
        if !signedCodes.isEmpty {
            let byCode = await driver.latencies.byCode
            figures.signedFeedbackMilliseconds = byCode.filter { signedCodes.contains($0.key) }.map(\.value)
            figures.rosterFeedbackMilliseconds = byCode.filter { !signedCodes.contains($0.key) }.map(\.value)
        }
        return figures
    }
}

/// Presents the attendees at the rate, measures code → feedback, plays the faults, then waits a
/// little for the print queue and until the uploads have caught up (at most a minute).
struct ArrivalDriver: Service {
    let runtime: StationRuntime
    let codes: [String]
    let rate: Double
    let faults: [DoorBenchmark.Fault]
    let output: FaultInjectingOutput
    let proxy: FaultProxy?
    let cups: CupsFaults?
    /// The station has a source to catch up with (not the signed-ticket arrivals' unreachable list).
    var uploadsGoSomewhere = true
    let latencies = Latencies()
    /// Seconds from the last answer and fault to an empty outbox (``DoorBenchmark/Figures/caughtUpSeconds``).
    let caughtUp = CaughtUp()

    actor CaughtUp {
        var value: Double?
        func set(_ seconds: Double) { value = seconds }
    }

    actor Latencies {
        var submitted: [String: ContinuousClock.Instant] = [:]
        var values: [Double] = []
        var byCode: [String: Double] = [:]
        var admitted = 0
        func submit(_ code: String) { submitted[code] = .now }
        func answer(_ code: String, admitted: Bool) {
            guard let start = submitted.removeValue(forKey: code) else { return }
            values.append((ContinuousClock.now - start).seconds * 1000)
            byCode[code] = values.last
            if admitted { self.admitted += 1 }
        }
        var answered: Int { values.count }
    }

    func run() async throws {
        let latencies = self.latencies
        let listener = Task {
            for await event in runtime.events {
                if case .result(let feedback) = event, case .code(let code) = feedback.presentation.input {
                    await latencies.answer(code, admitted: feedback.outcome?.decision.letsGuestIn == true)
                }
            }
        }
        defer { listener.cancel() }
        let start = ContinuousClock.now
        let faultTask = Task { await playFaults(from: start) }
        defer { faultTask.cancel() }
        for (index, code) in codes.enumerated() {
            let due = start + .milliseconds(Int64(Double(index) / rate * 1000))
            if due > .now { try await Task.sleep(until: due, clock: .continuous) }
            await latencies.submit(code)
            runtime.submit(Presentation(.code(code), source: .scanner, at: .now()))
        }
        while await latencies.answered < codes.count { try await Task.sleep(for: .milliseconds(20)) }
        // Faults end, then the queue gets a moment and the uploads catch up (the source's pace:
        // a backlog goes up as fast as it takes it).
        await faultTask.value
        // Nowhere to upload (the signed-ticket arrivals): the print queue's moment only.
        guard uploadsGoSomewhere else { return try await Task.sleep(for: .seconds(3)) }
        let calm = ContinuousClock.now
        var settled = false
        while ContinuousClock.now - calm < .seconds(60) {
            if !settled, (try? runtime.database.outbox.pendingCount()) == 0 {
                settled = true
                await caughtUp.set((ContinuousClock.now - calm).seconds)
            }
            if settled && ContinuousClock.now - calm >= .seconds(3) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func playFaults(from start: ContinuousClock.Instant) async {
        for fault in faults.sorted(by: { $0.start < $1.start }) {
            try? await Task.sleep(until: start + .milliseconds(Int64(fault.start * 1000)), clock: .continuous)
            set(fault, on: true)
            try? await Task.sleep(until: start + .milliseconds(Int64((fault.start + fault.duration) * 1000)), clock: .continuous)
            set(fault, on: false)
        }
    }

    func set(_ fault: DoorBenchmark.Fault, on: Bool) {
        switch fault.kind {
        case .printerDown: output.setDown(on)
        case .printerPaused: cups?.pause(on)
        case .printerOutOfMedia: cups?.outOfMedia(on)
        case .printerKilled: cups?.kill(on)
        case .hubDown, .pretixDown: proxy?.set(on ? .down : .pass)
        case .hubSlow, .pretixSlow: proxy?.set(on ? .slow(fault.delay) : .pass)
        case .pretixFailing: proxy?.set(on ? .failing : .pass)
        }
    }
}
