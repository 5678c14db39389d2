import Foundation
import GRDB
import KioskStore
import KioskTestSupport
import Testing

/// Check-ins reported to the operator survive the process being killed at any moment.
@Suite("Crash safety", .tags(.endToEnd), .endToEnd, .blocking)
struct CrashSafetyTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test("every check-in whose decision was printed survives kill -9 of kiosk checkin processes", .hangGuard)
    func killNine() throws {
        let directory = TemporaryDirectory("crash")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let count = 80
        let csv = directory.appending("roster.csv")
        try ("name,code\n" + (0..<count).map { "Guest \($0),C\($0)" }.joined(separator: "\n")).write(to: csv, atomically: true, encoding: .utf8)
        #expect(try run(kiosk, ["import", csv.path, "--data-dir", data]).status == 0)

        var generator = SystemRandomNumberGenerator()
        var reported: [String] = []
        var killed = 0
        // Four processes at a time compete for the write lock, and about half are killed at a
        // random moment: during start-up, while migrating/checking, inside the commit, or after.
        for batch in stride(from: 0, to: count, by: 4) {
            var running: [(code: String, process: Process, out: Pipe, kill: Bool)] = []
            for index in batch..<min(batch + 4, count) {
                let process = Process()
                process.executableURL = kiosk
                process.arguments = ["checkin", "C\(index)", "--data-dir", data, "--json"]
                let out = Pipe()
                process.standardOutput = out
                process.standardError = FileHandle.nullDevice
                try process.run()
                running.append(("C\(index)", process, out, Bool.random(using: &generator)))
            }
            usleep(UInt32.random(in: 0...60_000, using: &generator))
            for entry in running where entry.kill {
                kill(entry.process.processIdentifier, SIGKILL)
            }
            for entry in running {
                entry.process.waitUntilExit()
                if entry.process.terminationReason == .uncaughtSignal { killed += 1 }
                let output = String(decoding: entry.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                if output.contains("\"decision\":\"admitted\"") { reported.append(entry.code) }
            }
        }
        #expect(killed > 0, "some processes must actually have been killed")

        let database = try KioskDatabase.open(dataDirectory: directory.appending("data"))
        let stored = try database.read { db in
            try String.fetchAll(db, sql: """
                SELECT kiosk_guest_field(g.sealed, 'code') FROM check_ins c JOIN guests g ON g.id = c.guest_id
                JOIN outbox o ON o.ref = c.idempotency_key AND o.kind = 'checkin'
                """)
        }
        for code in reported {
            #expect(stored.contains(code), "check-in \(code) was reported but is missing")
        }
        #expect(try database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        // No check-in without its outbox row, and none twice.
        let orphans = try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM check_ins c WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.ref = c.idempotency_key)")
        }
        #expect(orphans == 0)
    }
}
