import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import Station
import Testing

@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct HeadlessTests {
    func events(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func codesOnStdinYieldOneJSONLinePerEvent() throws {
        let directory = TemporaryDirectory("kiosk-headless")
        defer { directory.remove() }
        let result = try run(BuiltProducts.executable("kiosk"), ["run", "--headless", "--data-dir", directory.appending("data").path],
                             stdin: "DEMO-0001\nDEMO-0001\nNOPE\nDEMO-0004\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try events(result.stdout)
        #expect(lines.first?["event"] as? String == "ready")
        let decisions = lines.filter { $0["event"] as? String == "decision" }
        #expect(decisions.map { $0["code"] as? String } == ["DEMO-0001", "NOPE", "DEMO-0004"])
        #expect(decisions.map { $0["decision"] as? String } == ["admitted", "unknown_code", "admitted"])
        #expect((decisions[0]["guest"] as? [String: Any])?["name"] as? String == "José Müller")
        // Feedback first: the decision carries the badge job and its first state; the rest follows.
        let badge = try #require(decisions[0]["badge"] as? [String: Any])
        #expect(badge["state"] as? String == "queued")
        let job = try #require(badge["job"] as? Int)
        #expect(lines.contains { $0["event"] as? String == "print_state" && $0["job"] as? Int == job && $0["state"] as? String == "printed" })
        #expect(lines.firstIndex { $0["event"] as? String == "decision" }! < lines.firstIndex { $0["event"] as? String == "print_state" }!)
        // A scanner re-reading the same code at once is one check-in.
        #expect(lines.contains { $0["event"] as? String == "repeat_ignored" })
        #expect(lines.contains { $0["event"] as? String == "sync" })
        let badges = try FileManager.default.contentsOfDirectory(atPath: directory.appending("data/badges").path)
        #expect(badges.count == 2)
    }

    @Test func withHeadlessNamesOffAGuestIsItsIdAndCodeOnly() throws {
        let directory = TemporaryDirectory("kiosk-headless")
        defer { directory.remove() }
        let configuration = directory.appending("kiosk.conf")
        try "headless_names = false\nprinter = none\n".write(to: configuration, atomically: true, encoding: .utf8)
        let result = try run(BuiltProducts.executable("kiosk"), ["run", "--headless", "--config", configuration.path,
                                                                "--data-dir", directory.appending("data").path], stdin: "DEMO-0001\n")
        #expect(result.status == 0, "\(result.stderr)")
        let decision = try #require(try events(result.stdout).first { $0["event"] as? String == "decision" })
        let guest = try #require(decision["guest"] as? [String: Any])
        #expect(guest["name"] == nil)
        #expect(guest["id"] as? String != nil && guest["code"] as? String == "DEMO-0001")
        #expect(!result.stdout.contains("Müller"))
    }

    @Test func namesAreLeftOutOnlyWhenStdoutIsTheJournalItself() {
        let journal = (device: UInt64(25), inode: UInt64(4_711))
        #expect(HeadlessNames.stdoutIsTheJournal(environment: ["JOURNAL_STREAM": "25:4711"], stdout: journal))
        #expect(!HeadlessNames.stdoutIsTheJournal(environment: ["JOURNAL_STREAM": "25:4711"], stdout: (25, 99)), "inherited, stdout is a pipe")
        #expect(!HeadlessNames.stdoutIsTheJournal(environment: [:], stdout: journal))
        #expect(!HeadlessNames.stdoutIsTheJournal(environment: ["JOURNAL_STREAM": "garbage"], stdout: journal))
    }

    @Test func withoutATerminalTheStationFallsBackToHeadlessAndSaysSo() throws {
        let directory = TemporaryDirectory("kiosk-headless")
        defer { directory.remove() }
        let result = try run(BuiltProducts.executable("kiosk"), ["run", "--printer", "none", "--data-dir", directory.appending("data").path], stdin: "")
        #expect(result.status == 0)
        #expect(result.stderr.contains("no terminal"))
        #expect(try events(result.stdout).first?["event"] as? String == "ready")
    }

    @Test func aFailingMigrationIsReportedAndNothingIsScanned() throws {
        let directory = TemporaryDirectory("kiosk-headless")
        defer { directory.remove() }
        let data = directory.appending("data")
        _ = try run(BuiltProducts.executable("kiosk"), ["migrate", "--data-dir", data.path])
        let migrations = try StationFixtures.migrationsWithABrokenOne(in: directory)
        let result = try run(BuiltProducts.executable("kiosk"), ["run", "--headless", "--data-dir", data.path],
                             stdin: "DEMO-0001\n", environment: ["KIOSK_MIGRATIONS_DIR": migrations.path])
        #expect(result.status == 75)
        let lines = try events(result.stdout)
        #expect(lines.count == 1)
        #expect(lines.first?["event"] as? String == "storage_unavailable")
        #expect(((lines.first?["storage"] as? [String: Any])?["migration"] as? String) == "9999_broken")
        #expect(result.stderr.contains("Contact support"))
    }

    @Test func namesInEventLinesCarryNoControlCharacters() throws {
        let event = StationEvent.notice("Check-in undone: Eve\u{1b}[2J\u{202E}", action: "undo")
        #expect(event.json.serialized.contains("Eve[2J"))
        #expect(!event.json.serialized.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }

    @Test func demoRosterEmbeddedInTheBinaryMatchesKioskDemoRosterCSV() throws {
        let file = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Kiosk/demo-roster.csv"), encoding: .utf8)
        #expect(DemoRoster.csv.trimmingCharacters(in: .newlines) == file.trimmingCharacters(in: .newlines))
    }

    @Test func configurationFileNamesTheBadLine() throws {
        let directory = TemporaryDirectory("kiosk-config")
        defer { directory.remove() }
        let file = directory.appending("kiosk.conf")
        try "# station\nhub = https://hub.example.org\nprint_policy = sometimes\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: StationError.self) { try StationConfiguration.load(file) }
        do { _ = try StationConfiguration.load(file) } catch { #expect(error.description.contains("kiosk.conf:3")) }
        try "hub = https://hub.example.org  # the hub\nprinter = BrotherQL\nself_service_pin = 432109\nframe_size = 1280x720\n".write(to: file, atomically: true, encoding: .utf8)
        let configuration = try StationConfiguration.load(file)
        #expect(configuration.hubURL == "https://hub.example.org")
        #expect(configuration.printer == "BrotherQL")
        #expect(configuration.selfServicePIN == "432109")
        #expect(configuration.frameWidth == 1280 && configuration.frameHeight == 720)
    }

    @Test(arguments: [("never", PrintPolicy.onRequest), ("auto", .onAdmission), ("once", .once), ("walk_ins_only", .walkInsOnly)])
    func anUpgradedStationsPrintPolicyStillLoadsOldNamesWithAWarning(value: String, policy: PrintPolicy) throws {
        let directory = TemporaryDirectory("kiosk-config")
        defer { directory.remove() }
        let file = directory.appending("kiosk.conf")
        try "print_policy = \(value)\n".write(to: file, atomically: true, encoding: .utf8)
        let configuration = try StationConfiguration.load(file)
        #expect(configuration.printPolicy == policy)
        #expect(configuration.warnings.isEmpty == (value == policy.rawValue))
    }

    @Test func exampleConfigurationParses() throws {
        let configuration = try StationConfiguration.load(BuiltProducts.packageRoot.appendingPathComponent("Kiosk/kiosk.conf.example"))
        #expect(configuration.printPolicy == .onAdmission)
        #expect(configuration.syncInterval == nil, "empty: each source's own interval")
    }

    @Test func theSyncIntervalIsTakenInSecondsAndAnUnusableOneIsRefusedWithItsLine() throws {
        let directory = TemporaryDirectory("kiosk-config")
        defer { directory.remove() }
        let file = directory.appending("kiosk.conf")
        try "sync_interval_seconds = 2\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try StationConfiguration.load(file).syncInterval == .seconds(2))
        try "# a comment\nsync_interval_seconds = 0\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try run(BuiltProducts.executable("kiosk"), ["run", "--headless", "--config", file.path, "--data-dir", directory.appending("data").path],
                             stdin: "")
        #expect(result.status == 65)
        #expect(result.stderr.contains("kiosk.conf:2: sync_interval_seconds must be a number of seconds from 1 to 300"), "\(result.stderr)")
    }
}
