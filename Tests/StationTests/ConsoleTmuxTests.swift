import CheckInCore
import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import Testing

/// The real console in tmux against a real data directory.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct ConsoleTmuxTests {
    func start(_ extra: [String] = [], environment: [String: String] = [:], wrapper: [String] = []) throws -> (TmuxConsole, TemporaryDirectory) {
        let directory = TemporaryDirectory("kiosk-console")
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path] + extra, directory: directory, environment: environment,
                                      wrapper: wrapper)
        // An empty station opens on the sign-in screen; F5 starts it on the demo roster instead.
        try console.waitFor("Sign in to the hub")
        try console.send("F5")
        try console.waitFor("Scan your ticket")
        return (console, directory)
    }

    func database(_ directory: TemporaryDirectory) throws -> KioskDatabase {
        try KioskDatabase.open(dataDirectory: directory.appending("data"))
    }

    @Test func typedCodeWelcomesTheGuestAndTheSameCodeAgainSaysAlreadyCheckedInWithWhoAndWhen() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.type("DEMO-0001")
        try console.send("Enter")
        try console.waitFor("Welcome, José Müller")
        try console.type("demo-0001")
        try console.send("Enter")
        let screen = try console.waitFor("Already checked in — by kiosk at Station")
        #expect(screen.contains("José Müller"))
        _ = try? console.waitFor("Please take your badge", seconds: 5)
        let badges = try FileManager.default.contentsOfDirectory(atPath: directory.appending("data/badges").path)
        #expect(badges.count == 1)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
    func aWrongClockIsShownOnTheStatusLineWhileTheDoorKeepsAdmitting() throws {
        // A box without a real-time clock that booted without network time thinks it is 2001.
        let (console, directory) = try start(wrapper: ["/usr/bin/faketime", "2001-01-01 09:00:00"])
        defer { console.stop(); directory.remove() }
        try console.waitFor("Clock wrong — set the time")
        try console.type("DEMO-0002")
        try console.send("Enter")
        try console.waitFor("Welcome")
        let marked = try database(directory).read { db in try Int.fetchOne(db, sql: "SELECT SUM(clock_suspect) FROM outbox") }
        #expect(marked == 1, "the check-in is kept and marked")
        try console.send("F11")
        try console.waitFor("None: every upload was accepted.")
    }

    @Test func aCameraFaultShowsOnTheConsoleWithItsFixClearsByItselfAndNothingElseDrawsOnTheScreen() throws {
        let camera = TemporaryDirectory("sim-camera")
        defer { camera.remove() }
        let (console, directory) = try start(["--printer", "none", "--camera", "sim:" + camera.path])
        defer { console.stop(); directory.remove() }
        try console.waitFor("scanning: simulated camera")
        try "unplugged\n".write(to: camera.appending("state"), atomically: true, encoding: .utf8)
        var screen = try console.waitFor("No camera — type codes or use the scanner")
        #expect(screen.contains("plug"), "the fix is on the screen: \(screen)")
        // The door keeps working by hand while the camera is away.
        try console.type("DEMO-0002")
        try console.send("Enter")
        try console.waitFor("Welcome")
        try "present\n".write(to: camera.appending("state"), atomically: true, encoding: .utf8)
        screen = try console.waitFor("scanning: simulated camera")
        #expect(!screen.contains("No camera —"))
        // A ticket held up to the (simulated) lens is read by the real decoder.
        let pgm = Data("P5\n\(HeadlessFramesTests.width) \(HeadlessFramesTests.height)\n255\n".utf8) + Data(HeadlessFramesTests.frame("DEMO-0003"))
        try pgm.write(to: camera.appending("frame.pgm"))
        try console.waitFor("Welcome, 王小明")
        // The fault was logged to the data directory's log file, not onto the screen.
        let log = try String(contentsOf: directory.appending("data/logs/kiosk.log"), encoding: .utf8)
        #expect(log.contains("camera unplugged") || log.contains("camera missing"), "\(log)")
        let stderr = (try? String(contentsOf: directory.appending("stderr.log"), encoding: .utf8)) ?? ""
        #expect(stderr.isEmpty, "nothing but the console writes to the terminal: \(stderr)")
    }

    @Test func searchWithoutAccentsFindsJoséMüllerAndChecksHimIn() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F2")
        try console.waitFor("Search:")
        try console.type("jose")
        try console.waitFor("▶ José Müller")
        try console.send("Enter")
        try console.waitFor("Welcome, José Müller")
        let source = try database(directory).read { db in try String.fetchOne(db, sql: "SELECT source FROM check_ins") }
        #expect(source == "search")
    }

    @Test func walkInCreatesTheGuestWritesABadgePDFAndQueuesTheUpload() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F4")
        try console.waitFor("Walk-in registration")
        try console.type("Zoë Walker")
        try console.send("Tab")
        try console.type("zoe@example.org")
        try console.send("Tab")
        try console.type("Door Co")
        try console.send("Tab")
        try console.send("Enter")
        try console.waitFor("Walk-in registered: W-")
        try console.waitFor("Welcome, Zoë Walker")
        let database = try database(directory)
        let kinds = try database.read { db in try String.fetchAll(db, sql: "SELECT kind FROM outbox ORDER BY sort_at") }
        #expect(kinds == ["walkin", "checkin"])
        let walkIns = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests WHERE walk_in = 1 AND kiosk_guest_field(sealed, 'name') = 'Zoë Walker'") }
        #expect(walkIns == 1)
        // The badge comes from the print queue, after the welcome; its file name carries no ticket code.
        try console.waitFor("Please take your badge")
        let badges = try FileManager.default.contentsOfDirectory(atPath: directory.appending("data/badges").path)
        #expect(badges.count == 1 && badges[0].hasPrefix("badge-") && badges[0].hasSuffix(".pdf"))
    }

    @Test func undoLastCheckInIsShownAndAudited() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.type("DEMO-0002")
        try console.send("Enter")
        try console.waitFor("Welcome, Ødegård Ås")
        try console.send("F6")
        try console.waitFor("Check-in undone: Ødegård Ås")
        let database = try database(directory)
        let undone = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins WHERE undone_at IS NOT NULL") }
        let audited = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit_log WHERE action = 'undo'") }
        #expect(undone == 1 && audited == 1)
    }

    @Test func signOutWithPendingCheckInsWarnsAndOffersThreeChoices() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.type("DEMO-0003")
        try console.send("Enter")
        try console.waitFor("Welcome, 王小明")
        // No hub: the check-in stays on this station (not "pending sync" to a hub there is none of).
        try console.waitFor("no hub — 1 check-in kept on this station")
        try console.send("F8")
        let screen = try console.waitFor("1 change is not uploaded yet.")
        #expect(screen.contains("Wait until they are uploaded"))
        #expect(screen.contains("Keep them on this station"))
        #expect(screen.contains("Discard them"))
        // A code typed on this screen (starting with D) answers nothing: it goes to the code line
        // and checks its guest in, and the prompt stays open.
        try console.type("DEMO-0004")
        try console.send("Enter")
        let screen2 = try console.waitFor("Welcome, Ana Sofía Pérez")
        #expect(screen2.contains("1 change is not uploaded yet."))
        try console.send("Right")
        try console.send("F8")
        try console.waitFor("Not signed in to a hub; 2 pending check-in(s) stay on this station")
    }

    @Test func aNameHoldingEscapeSequencesIsDisplayedHarmlessly() async throws {
        let directory = TemporaryDirectory("kiosk-console")
        defer { directory.remove() }
        let database = try KioskDatabase.open(dataDirectory: directory.appending("data"))
        try await database.roster.saveAccessType(AccessType(id: "general", name: "General\u{1b}[5m"))
        try await database.roster.saveGuest(Guest(id: "evil", code: TicketCode(stored: "EVIL-1"), name: "Mallory\u{1b}[2J\u{1b}[31mRed\u{1b}]0;owned\u{07}\u{9b}H\u{202E}x",
                                           company: "\u{1b}[?1049h", accessTypeID: "general"))
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path], directory: directory)
        defer { console.stop() }
        try console.waitFor("Scan your ticket")
        try console.type("EVIL-1")
        try console.send("Enter")
        let screen = try console.waitFor("Welcome, Mallory[2J[31mRed]0;ownedHx")
        // The screen was not cleared, the title bar and status line are intact.
        #expect(screen.contains("Check-in · Station"))
        #expect(screen.contains("roster 1 guest"))
        let title = try console.tmux(["display-message", "-p", "-t", "0", "#{pane_title}"])
        #expect(!title.contains("owned"))
        try console.send("F2")
        try console.type("mallory")
        try console.waitFor("▶ Mallory[2J[31mRed")
    }

    @Test func resizingRedrawsAndTooSmallTerminalsSaySo() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.resize(columns: 50, rows: 12)
        try console.waitFor("Terminal too small")
        try console.waitFor("need 60×16, have 50×12")
        try console.resize(columns: 120, rows: 35)
        let screen = try console.waitFor("Scan your ticket")
        #expect(screen.contains("F10 Quit"))
        #expect(screen.split(separator: "\n", omittingEmptySubsequences: false).count >= 35)
    }

    @Test func selfServiceNeedsThePINForOperatorFunctions() throws {
        let directory = TemporaryDirectory("kiosk-console")
        defer { directory.remove() }
        try "self_service_pin = 432109\nstation_name = Door 2\n".write(to: directory.appending("kiosk.conf"), atomically: true, encoding: .utf8)
        let console = try TmuxConsole(["--data-dir", directory.appending("data").path, "--config", directory.appending("kiosk.conf").path, "--self-service"],
                                      directory: directory)
        defer { console.stop() }
        try console.waitFor("Sign in to the hub")
        try console.send("F5")
        try console.waitFor("Staff: press any function key")
        try console.send("F4")
        try console.waitFor("Staff PIN:")
        try console.type("999999")
        try console.send("Enter")
        try console.waitFor("Wrong PIN")
        try console.send("F4")
        try console.waitFor("Staff PIN:")
        try console.type("432109")
        try console.send("Enter")
        let screen = try console.waitFor("Check-in · Door 2 · operator")
        #expect(screen.contains("F4 Walk-in"))
    }

    @Test func quitAsksForConfirmationAndStopsCleanly() throws {
        let (console, directory) = try start()
        defer { console.stop(); directory.remove() }
        try console.send("F10")
        try console.waitFor("Quit the station?")
        try console.send("n")
        try console.waitFor("Code:")
        try console.send("F10")
        try console.waitFor("Quit the station?")
        try console.type("Y-CODE-1")
        try console.send("Enter")
        try console.waitFor("Code:")
        try console.send("F10")
        try console.waitFor("Quit the station?")
        try console.send("F10")
        #expect(try console.waitForExit() == 0)
    }

    @Test func aFailingMigrationShowsTheDiagnosticAndDoesNotScan() throws {
        let directory = TemporaryDirectory("kiosk-console")
        defer { directory.remove() }
        let data = directory.appending("data")
        _ = try run(BuiltProducts.executable("kiosk"), ["checkin", "DEMO-0001", "--data-dir", data.path])   // creates the database
        let migrations = try StationFixtures.migrationsWithABrokenOne(in: directory)
        let console = try TmuxConsole(["--data-dir", data.path], directory: directory, environment: ["KIOSK_MIGRATIONS_DIR": migrations.path])
        defer { console.stop() }
        let screen = try console.waitFor("Storage did not start")
        #expect(screen.contains("9999_broken"))
        #expect(screen.contains("Contact support"))
        try console.type("DEMO-0001")
        try console.send("Enter")
        try console.send("F10")
        try console.waitFor("Quit the station?")
        try console.send("F10")
        #expect(try console.waitForExit() == 75)
        let checkIns = try KioskDatabase.open(dataDirectory: data).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins") }
        #expect(checkIns == 0)
    }
}

enum StationFixtures {
    /// A station with one check-in whose storage cannot start (a broken migration), its console
    /// in an 80×24 tmux window on the diagnostic screen.
    static func diagnosticConsole(in directory: TemporaryDirectory) throws -> TmuxConsole {
        let data = directory.appending("data")
        _ = try run(BuiltProducts.executable("kiosk"), ["checkin", "DEMO-0001", "--data-dir", data.path])
        let migrations = try migrationsWithABrokenOne(in: directory)
        let console = try TmuxConsole(["--data-dir", data.path], directory: directory, environment: ["KIOSK_MIGRATIONS_DIR": migrations.path],
                                      columns: 80, rows: 24)
        _ = try console.waitFor("Contact support")
        return console
    }

    /// The shipped migrations plus one that fails, in a folder for `KIOSK_MIGRATIONS_DIR`.
    static func migrationsWithABrokenOne(in directory: TemporaryDirectory) throws -> URL {
        let folder = directory.appending("migrations")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shipped = BuiltProducts.packageRoot.appendingPathComponent("Migrations/kiosk")
        for file in try FileManager.default.contentsOfDirectory(atPath: shipped.path) where file.hasSuffix(".sql") {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        try "ALTER TABLE no_such_table ADD COLUMN x TEXT;\n".write(to: folder.appendingPathComponent("9999_broken.sql"), atomically: true, encoding: .utf8)
        return folder
    }
}
