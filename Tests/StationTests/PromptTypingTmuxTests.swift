import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import PrintTestSupport
import Testing

/// A volunteer types a damaged ticket's code by hand while the console asks about badges that
/// waited too long: the code checks its guest in, and the question waits for a deliberate answer
/// (a typed word), never for a letter of the code.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
struct PromptTypingTmuxTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func aCodeTypedByHandWhileTheWaitingBadgesQuestionIsOpenChecksInAndNoBadgeIsCanceled() throws {
        let rig = try CupsRig(queues: ["badge"])
        defer { rig.stop() }
        let directory = TemporaryDirectory("prompt-typing")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let roster = directory.appending("roster.csv")
        try "name,code,access_type\nAda Early,AEARLY0001,General\nCarl Typed,CVL8TBDGM8HZVF2A,General\n"
            .write(to: roster, atomically: true, encoding: .utf8)
        #expect(try run(kiosk, ["import", roster.path, "--data-dir", data]).status == 0)
        let config = directory.appending("kiosk.conf")
        try "print_stale_minutes = 1\n".write(to: config, atomically: true, encoding: .utf8)

        // Ada is admitted while the queue is paused: her badge is held.
        try rig.cups("cupsdisable", ["-r", "auditor paused", "badge"])
        let headless = try StationProcess(["run", "--headless", "--printer", "badge", "--data-dir", data, "--config", config.path],
                                          headless: true, environment: ["CUPS_SERVER": rig.server])
        headless.wait(limit: 60) { $0.contains { $0.contains(#""event":"ready""#) } }
        headless.send("AEARLY0001")
        headless.wait(limit: 60) { $0.contains { $0.contains(#""state":"held""#) } }
        headless.process.terminate()
        headless.process.waitUntilExit()

        // Five minutes later the badge has waited longer than the limit: the console asks.
        let console = try TmuxConsole(["--printer", "badge", "--data-dir", data, "--config", config.path], directory: directory,
                                      environment: ["CUPS_SERVER": rig.server], wrapper: ["/usr/bin/faketime", "-f", "+5m"],
                                      columns: 80, rows: 24)
        defer { console.stop() }
        var screen = try console.waitFor("Print 1 waiting badge?")
        #expect(!screen.contains("other printer"), "no second printer is configured, so none is offered: \(screen)")

        // A code typed at a person's pace (its first letter is C) goes to the code line.
        try console.typeByHand("CVL8TBDGM8HZVF2A", gap: 0.15)
        try console.send("Enter")
        screen = try console.waitFor("Welcome, Carl Typed")
        #expect(screen.contains("Print 1 waiting badge?"), "the question is still open: \(screen)")
        #expect(!screen.contains("canceled"), "\(screen)")
        let waiting = try KioskDatabase.open(dataDirectory: URL(fileURLWithPath: data))
            .read { db in try String.fetchAll(db, sql: "SELECT state FROM print_jobs ORDER BY id") }
        #expect(waiting.first == "awaiting_operator", "Ada's badge still waits for the operator: \(waiting)")

        // The deliberate answer: the word, typed, and Enter.
        try console.typeByHand("cancel")
        try console.send("Enter")
        screen = try console.waitFor("Waiting badges canceled")
        try console.waitFor("Scan your ticket")
        // The answer's notice and the queue's "no more question" take two paths to the screen.
        try console.waitForAbsence(of: "Print 1 waiting badge?", seconds: 10)
    }
}
