import ArgumentParser
import Foundation
import KioskStore
import Logging
import PretixSync
import QRScan
import Station

/// `kiosk bench door`: attendees at a steady rate through the real station, with the venue's
/// faults on a schedule, next to a baseline run without faults (see ``DoorBenchmark``).
struct BenchDoorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "door",
        abstract: "Benchmark the door: code → feedback while the printer or the hub fail (release build).",
        discussion: """
            Faults are KIND@START+SECONDS, comma-separated: printer-down (the printer stops answering), \
            printer-paused (cupsdisable), printer-out-of-media and printer-killed (a private CUPS rig: --cups-rig), \
            hub-down (the hub's connections are reset), hub-slow (each hub answer held back 2 s), \
            pretix-down, pretix-slow and pretix-500 (every pretix answer an HTTP 500). \
            Default: printer-down@5+20, and with --hub also hub-down@30+15,hub-slow@50+15, \
            with --pretix-data also pretix-down@30+15,pretix-slow@50+15,pretix-500@70+15.
            """)

    @Option(help: "Attendees to present.") var attendees = 600
    @Option(help: "Attendees per second.") var rate = 10.0
    @Option(help: "A CUPS queue to print on (default: a folder of PDFs).") var printer: String?
    @Option(help: "Hub URL (the station signs in, downloads the event, and uploads as it goes).") var hub: String?
    @Option(help: "Staff e-mail for --hub.") var email = ""
    @Option(help: "Event id for --hub (its first guests must not be checked in yet).") var event = ""
    @Option(name: .customLong("password-env"), help: "Environment variable holding the password.") var passwordEnv = "KIOSK_PASSWORD"
    @Option(name: .customLong("pretix-data"),
            help: "The data directory of a station connected to pretix (kiosk pretix connect): each run syncs with its check-in list as that device instead of a hub.")
    var pretixData: String?
    @Option(help: "Faults, e.g. printer-down@5+20,hub-down@30+15.") var faults: String?
    @Option(name: .customLong("cups-rig"), help: "A private CUPS rig's directory (Kiosk/cups-test-rig.sh start DIR QUEUE), for printer-out-of-media and printer-killed.")
    var cupsRig: String?
    @Flag(name: .customLong("signed-tickets"),
          help: "Every other attendee holds a signed ticket (pretix_sig1) the station has no order for: signed and roster figures side by side (local roster only).")
    var signedTickets = false
    @Flag(help: "Print one JSON document.") var json = false

    func validate() throws {
        if let faults, faults.split(separator: ",").contains(where: { DoorBenchmark.Fault(String($0)) == nil }) {
            throw ValidationError("--faults: use KIND@START+SECONDS with KIND one of \(DoorBenchmark.Fault.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if rate <= 0 || attendees <= 0 { throw ValidationError("--rate and --attendees must be positive") }
        if signedTickets && (hub != nil || pretixData != nil) { throw ValidationError("--signed-tickets uses the local roster: leave out --hub and --pretix-data") }
    }

    func run() async throws {
        CommandOutput.bootstrapLogging()
        var logger = Logger(label: "kiosk.bench.door")
        logger.logLevel = .error
        var hubSetup: DoorBenchmark.Hub?
        if let hub {
            let password = try SyncPassword.read(fd: nil, environmentVariable: passwordEnv)
            guard let url = URL(string: hub) else { throw ValidationError("--hub is not a URL") }
            hubSetup = DoorBenchmark.Hub(url: url, email: email, password: password, event: event)
        }
        var pretixSetup: DoorBenchmark.Pretix?
        if let pretixData {
            let connected = try KioskDatabase.open(dataDirectory: URL(fileURLWithPath: pretixData))
            guard let link = try PretixLinkFile<PretixLink>(database: connected).load(), let server = URL(string: link.server) else {
                throw ValidationError("--pretix-data: \(pretixData) is not the data directory of a station connected to pretix (kiosk pretix connect)")
            }
            pretixSetup = DoorBenchmark.Pretix(server: server, device: link.device, event: link.event, list: link.list)
        }
        let defaultFaults = ["printer-down@5+20"] + (hub == nil ? [] : ["hub-down@30+15", "hub-slow@50+15"])
            + (pretixData == nil ? [] : ["pretix-down@30+15", "pretix-slow@50+15", "pretix-500@70+15"])
        let faultList = (faults.map { $0.split(separator: ",").map(String.init) } ?? defaultFaults).compactMap(DoorBenchmark.Fault.init)
        var benchmark = DoorBenchmark(attendees: attendees, rate: rate, printerQueue: printer, hub: hubSetup, faults: faultList)
        benchmark.pretix = pretixSetup
        benchmark.cupsRig = cupsRig.map { URL(fileURLWithPath: $0) }
        benchmark.signedTickets = signedTickets
        let (baseline, faulted) = try await benchmark.run(logger: logger)
        func percentiles(_ values: [Double]) -> JSONValue {
            ["p50": .double(CorpusScore.percentile(values, 50)), "p95": .double(CorpusScore.percentile(values, 95)),
             "p99": .double(CorpusScore.percentile(values, 99)), "max": .double(values.max() ?? 0)]
        }
        func figures(_ run: DoorBenchmark.Figures) -> JSONValue {
            ["feedback_ms": percentiles(run.feedbackMilliseconds),
             "signed_feedback_ms": signedTickets ? percentiles(run.signedFeedbackMilliseconds) : .null,
             "roster_feedback_ms": signedTickets ? percentiles(run.rosterFeedbackMilliseconds) : .null,
             "admitted": .int(run.admitted), "printed": .int(run.printed), "badges_waiting": .int(run.badgesWaiting),
             "uploads_pending": .int(run.uploadsPending),
             "caught_up_seconds": run.caughtUpSeconds.map { JSONValue.double(($0 * 10).rounded() / 10) } ?? .null, "seconds": .double(run.seconds)]
        }
        if json {
            CommandOutput.printJSON(["attendees": .int(attendees), "rate": .double(rate), "printer": .string(printer ?? "pdf folder"),
                                     "hub": .optional(hub), "pretix": .optional(pretixSetup.map { "\($0.server) \($0.event) list \($0.list)" }), "faults": .array(faultList.map { .string($0.description) }),
                                     "baseline": figures(baseline), "faulted": figures(faulted), "target_p99_ms": 50])
        } else {
            print("door: \(attendees) attendees at \(rate)/s, printer \(printer ?? "pdf folder")\(hub.map { ", hub \($0)" } ?? "")"
                  + (pretixSetup.map { ", pretix \($0.server) event \($0.event) list \($0.list)" } ?? ""))
            for (name, run) in [("baseline (no faults)", baseline), ("with " + faultList.map(\.description).joined(separator: ", "), faulted)] {
                print(String(format: "  %@: feedback p50 %.1f ms  p95 %.1f ms  p99 %.1f ms (target ≤ 50)  max %.1f ms", name,
                             run.percentile(50), run.percentile(95), run.percentile(99), run.feedbackMilliseconds.max() ?? 0))
                if signedTickets {
                    for (kind, values) in [("signed tickets, verified at the door", run.signedFeedbackMilliseconds), ("roster lookups", run.rosterFeedbackMilliseconds)] {
                        print(String(format: "    %@: p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  max %.1f ms", kind, CorpusScore.percentile(values, 50),
                                     CorpusScore.percentile(values, 95), CorpusScore.percentile(values, 99), values.max() ?? 0))
                    }
                }
                print("    admitted \(run.admitted), badges printed \(run.printed), waiting \(run.badgesWaiting), uploads pending \(run.uploadsPending)"
                      + (signedTickets ? " (nowhere to upload in this benchmark)"
                         : run.caughtUpSeconds.map { ", caught up \(String(format: "%.1f", $0)) s after the faults" } ?? ", not caught up within 60 s"))
            }
        }
    }
}
