import CheckInCore
import Foundation
import KioskTestSupport
import Testing

/// The `kiosk` command line as acceptance checks and operators call it: real processes.
@Suite("kiosk command line", .serialized, .tags(.endToEnd), .endToEnd, .blocking)
struct KioskCommandLineTests {
    let kiosk = BuiltProducts.executable("kiosk")

    static let roster = """
        name,email,company,code,access_type
        José Müller,jose@example.com,ACME,ABC1,VIP
        Ødegård Ås,o@example.no,Fjord AS,ABC2,General
        """

    func station() throws -> (TemporaryDirectory, URL) {
        let directory = TemporaryDirectory("cli")
        let csv = directory.appending("roster.csv")
        try Self.roster.write(to: csv, atomically: true, encoding: .utf8)
        return (directory, csv)
    }

    @Test func searchFindsGuestsLikeTheConsoleWithoutAccentsOrCaseAndSaysWhoIsIn() throws {
        let (directory, csv) = try station()
        defer { directory.remove() }
        let data = directory.appending("data").path
        #expect(try run(kiosk, ["import", csv.path, "--data-dir", data]).status == 0)
        #expect(try run(kiosk, ["checkin", "ABC2", "--data-dir", data]).status == 0)
        let found = try run(kiosk, ["search", "odegard", "--data-dir", data, "--json"])
        #expect(found.status == 0)
        let results = try #require(try found.json()["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["name"] as? String == "Ødegård Ås")
        #expect(results.first?["code"] as? String == "ABC2")
        #expect(results.first?["access_type"] as? String == "General")
        #expect(results.first?["checked_in"] as? Bool == true)
        #expect(try run(kiosk, ["search", "MULL", "--data-dir", data]).stdout.contains("José Müller"))
        let none = try run(kiosk, ["search", "nobody", "--data-dir", data, "--json"])
        #expect(none.status == 1)
        #expect((try none.json()["results"] as? [Any])?.isEmpty == true)
    }

    @Test func semicolonAndWindows1252ExportsImportAndSayHowTheyWereRead() throws {
        let directory = TemporaryDirectory("cli")
        defer { directory.remove() }
        let data = directory.appending("data").path
        // Excel's "CSV" of Western Europe: semicolons, Windows-1252 (ü = 0xFC, € = 0x80).
        let excel = directory.appending("excel.csv")
        try Data(Array("Name;E-mail;Code;Ticket type\r\nJ".utf8) + [0xFC] + Array("rgen Sch".utf8) + [0xFC]
                 + Array("tz;j@example.de;EUR1;VIP ".utf8) + [0x80] + Array("\r\n".utf8)).write(to: excel)
        let imported = try run(kiosk, ["import", excel.path, "--data-dir", data])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("Read as generic export, semicolon-separated, Windows-1252; columns: name, e-mail, ticket code, access type."))
        #expect(imported.stdout.contains("Warning: The file is not UTF-8"))
        let admitted = try run(kiosk, ["checkin", "eur1", "--data-dir", data])
        #expect(admitted.status == 0)
        #expect(admitted.stdout.contains("Welcome, Jürgen Schütz (VIP €)"))
        // Spreadsheets' "Unicode text": UTF-16 with BOM, tabs; machine-readable report.
        let unicode = directory.appending("unicode.txt")
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "Code\tName\r\nU1\t王芳\r\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: unicode)
        let json = try run(kiosk, ["import", unicode.path, "--data-dir", data, "--json"]).json()
        let read = try #require(json["read"] as? [String: Any])
        #expect(read["delimiter"] as? String == "tab")
        #expect(read["encoding"] as? String == "UTF-16 LE")
        #expect(json["imported"] as? Int == 1)
        #expect(try run(kiosk, ["search", "王芳", "--data-dir", data]).stdout.contains("王芳"))
    }

    @Test func aTicketTheExportSaysIsBlockedIsRefusedAtTheDoorUntilAnImportUnblocksIt() throws {
        let directory = TemporaryDirectory("cli")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let export = directory.appending("pretix.csv")
        func write(blocked: String) throws {
            try "Order code;Attendee name;Product;Secret;Blocked\nA1;Ann Lee;VIP;leaked1;\(blocked)\nA2;Bob Ray;VIP;fine2;No\n"
                .write(to: export, atomically: true, encoding: .utf8)
        }
        try write(blocked: "Yes")
        let imported = try run(kiosk, ["import", export.path, "--data-dir", data])
        #expect(imported.stdout.contains("columns: order, name, access type, ticket code, blocked"))
        let refused = try run(kiosk, ["checkin", "LEAKED1", "--data-dir", data, "--json"])
        #expect(refused.status != 0)
        #expect(try refused.json()["decision"] as? String == "revoked")
        #expect(try run(kiosk, ["checkin", "FINE2", "--data-dir", data]).status == 0)
        try write(blocked: "No")
        #expect(try run(kiosk, ["import", export.path, "--data-dir", data]).stdout.contains("updated 1"))
        #expect(try run(kiosk, ["checkin", "LEAKED1", "--data-dir", data]).status == 0)
    }

    @Test func anExcelWorkbookImportsItsFirstSheetAndItsBlockedTicketIsRefusedAtTheDoor() throws {
        let directory = TemporaryDirectory("cli")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let workbook = directory.appending("pretix.xlsx")
        try WorkbookFixture(name: "Attendees", rows: [
            ["Order code", "Attendee name", "Product", "Secret", "Blocked"].map { .shared($0) },
            [.shared("A1"), .shared("Ann Lee"), .shared("VIP"), .shared("leaked1"), .shared("Yes")],
            [.shared("A2"), .inline("Bob Ray"), .shared("VIP"), .number("4711"), .boolean(false)],
        ]).write(to: workbook)
        let imported = try run(kiosk, ["import", workbook.path, "--data-dir", data])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains(
            "Read as pretix export, Excel workbook, sheet \"Attendees\"; columns: order, name, access type, ticket code, blocked."), "\(imported.stdout)")
        #expect(imported.stdout.contains("Imported 2 new guests"))
        let refused = try run(kiosk, ["checkin", "LEAKED1", "--data-dir", data, "--json"])
        #expect(refused.status == Decision.Kind.revoked.exitCode)
        #expect(refused.status == 15)
        let admitted = try run(kiosk, ["checkin", "4711", "--data-dir", data])
        #expect(admitted.status == 0, "\(admitted.stdout)\(admitted.stderr)")
        #expect(admitted.stdout.contains("Bob Ray"))
        let again = try run(kiosk, ["import", workbook.path, "--data-dir", data, "--json"]).json()
        #expect((again["read"] as? [String: Any])?["source"] as? String == "Excel workbook, sheet \"Attendees\"")
        #expect(again["unchanged"] as? Int == 2)
    }

    @Test func theAttendanceExportSaysWhoCameAndKeepsFormulasAsText() throws {
        let directory = TemporaryDirectory("cli")
        defer { directory.remove() }
        let csv = directory.appending("roster.csv")
        try """
            name,email,company,code
            "Müller, José",jose@example.com,ACME,ABC1
            "=HYPERLINK(""http://evil"")",x@example.com,,ABC2
            Ann Lee,ann@example.com,,ABC3
            """.write(to: csv, atomically: true, encoding: .utf8)
        let data = directory.appending("data").path
        #expect(try run(kiosk, ["import", csv.path, "--data-dir", data]).status == 0)
        #expect(try run(kiosk, ["checkin", "ABC1", "--station", "Door 1", "--operator", "Alex", "--data-dir", data]).status == 0)
        #expect(try run(kiosk, ["checkin", "ABC3", "--data-dir", data]).status == 0)
        #expect(try run(kiosk, ["checkin", "ABC3", "--exit", "--data-dir", data]).status == 0)
        let out = directory.appending("attendance.csv")
        let exported = try run(kiosk, ["export", "attendance", out.path, "--data-dir", data, "--json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let answer = try exported.json()
        #expect(answer["guests"] as? Int == 3)
        #expect(answer["checked_in"] as? Int == 2)
        #expect(answer["inside"] as? Int == 1)
        let lines = try String(contentsOf: out, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "code,name,email,company,access_type,checked_in,first_entry_at,station,operator,inside")
        #expect(lines.count == 4)
        #expect(lines.contains { $0.hasPrefix("ABC2,\"'=HYPERLINK(\"\"http://evil\"\")\",x@example.com,,General,no,,,,no") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ABC1,\"Müller, José\",jose@example.com,ACME,General,yes,20") && $0.hasSuffix(",Door 1,Alex,yes") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ABC3,Ann Lee,") && $0.hasSuffix(",no") && $0.contains(",yes,") }, "\(lines)")
        let mode = try FileManager.default.attributesOfItem(atPath: out.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let unwritable = try run(kiosk, ["export", "attendance", "/proc/nope/attendance.csv", "--data-dir", data])
        #expect(unwritable.status != 0)
        #expect(unwritable.stderr.contains("Cannot write"), "\(unwritable.stderr)")
    }

    @Test func nothingInTheDataDirectoryIsReadableByOtherUsersWhateverTheUmask() throws {
        let (directory, csv) = try station()
        defer { directory.remove() }
        let data = directory.appending("data")
        // As an older version or a permissive shell left it: a folder and a file readable by all.
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        FileManager.default.createFile(atPath: data.appendingPathComponent("notes.txt").path, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644])
        let imported = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "umask 022 && exec \"$0\" import \"$1\" --data-dir \"$2\"", kiosk.path, csv.path, data.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try run(kiosk, ["checkin", "ABC1", "--data-dir", data.path]).status == 0)
        let everything = [data.path] + (FileManager.default.subpaths(atPath: data.path) ?? []).map { data.appendingPathComponent($0).path }
        #expect(everything.count >= 3)
        for path in everything {
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0o777) & 0o077
            #expect(mode == 0, "\(path) is open to others: \(String(mode, radix: 8))")
        }
    }

    @Test("migrate on an empty data dir reports the number of migration files as schema version")
    func migrateEmpty() throws {
        let (directory, _) = try station()
        defer { directory.remove() }
        let files = try FileManager.default.contentsOfDirectory(atPath: BuiltProducts.packageRoot.appendingPathComponent("Migrations/kiosk").path)
            .filter { $0.hasSuffix(".sql") }
        let result = try run(kiosk, ["migrate", "--data-dir", directory.appending("data").path, "--json"])
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["schema_version"] as? Int == files.count)
        #expect((json["applied"] as? [String])?.count == files.count)
    }

    @Test("migrate upgrades an old fixture with its data intact, and status says so once")
    func migrateFixture() throws {
        let directory = TemporaryDirectory("cli-fixture")
        defer { directory.remove() }
        try FileManager.default.createDirectory(at: directory.appending("data"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: BuiltProducts.packageRoot.appendingPathComponent("Tests/KioskStoreTests/Fixtures/kiosk-v1.sqlite"),
            to: directory.appending("data/kiosk.sqlite"))
        let migrate = try run(kiosk, ["migrate", "--data-dir", directory.appending("data").path, "--json"])
        #expect(migrate.status == 0)
        #expect((try migrate.json()["applied"] as? [String])?.first == "0002_guest_search")
        let status = try run(kiosk, ["status", "--data-dir", directory.appending("data").path, "--json"]).json()
        let storage = try #require(status["storage"] as? [String: Any])
        #expect(storage["state"] as? String == "updated")
        #expect(storage["from"] as? Int == 1)
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int == 3)
        #expect((status["roster"] as? [String: Any])?["guests"] as? Int == 5)
        #expect(status["device_id"] as? String == "fixture-device")
        let again = try run(kiosk, ["status", "--data-dir", directory.appending("data").path, "--json"]).json()
        #expect((again["storage"] as? [String: Any])?["state"] as? String == "ok")
    }

    @Test("import, check in, and the second check-in names who, where and when")
    func importAndCheckIn() throws {
        let (directory, csv) = try station()
        defer { directory.remove() }
        let data = directory.appending("data").path
        let imported = try run(kiosk, ["import", csv.path, "--data-dir", data, "--json"])
        #expect(imported.status == 0)
        #expect(try imported.json()["imported"] as? Int == 2)

        let first = try run(kiosk, ["checkin", "abc1", "--data-dir", data, "--json", "--operator", "Alex", "--station", "Door 2"])
        #expect(first.status == 0)
        let firstJSON = try first.json()
        #expect(firstJSON["decision"] as? String == "admitted")
        #expect((firstJSON["guest"] as? [String: Any])?["name"] as? String == "José Müller")
        #expect((firstJSON["guest"] as? [String: Any])?["access_type"] as? String == "VIP")

        let second = try run(kiosk, ["checkin", "ABC1", "--data-dir", data, "--json"])
        #expect(second.status == Decision.Kind.duplicate.exitCode)
        let previous = try #require(try second.json()["previous"] as? [String: Any])
        #expect(previous["by"] as? String == "Alex")
        #expect(previous["station"] as? String == "Door 2")
        #expect(previous["at"] is String)

        let unknown = try run(kiosk, ["checkin", "NOPE", "--data-dir", data, "--json"])
        #expect(unknown.status == Decision.Kind.unknownCode.exitCode)
        #expect(try unknown.json()["decision"] as? String == "unknown_code")

        let status = try run(kiosk, ["status", "--data-dir", data, "--json"]).json()
        #expect(status["schema_version"] as? Int != nil)
        #expect((status["storage"] as? [String: Any])?["state"] as? String == "ok")
        #expect((status["roster"] as? [String: Any])?["guests"] as? Int == 2)
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int == 1)
        #expect((status["device_id"] as? String)?.isEmpty == false)
    }

    @Test("a broken roster file is refused with a clear message and exit status 65")
    func brokenRoster() throws {
        let (directory, _) = try station()
        defer { directory.remove() }
        let bad = directory.appending("bad.csv")
        try "name,email\nA,a@b.c\n".write(to: bad, atomically: true, encoding: .utf8)
        let result = try run(kiosk, ["import", bad.path, "--data-dir", directory.appending("data").path, "--json"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no ticket code column"))
        #expect((try result.json()["error"] as? String)?.isEmpty == false)
    }

    @Test("a failing migration is reported by status and stops check-ins, keeping the data")
    func failingMigration() throws {
        let (directory, csv) = try station()
        defer { directory.remove() }
        let data = directory.appending("data").path
        _ = try run(kiosk, ["import", csv.path, "--data-dir", data])
        _ = try run(kiosk, ["checkin", "ABC1", "--data-dir", data])
        let migrations = directory.appending("migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: BuiltProducts.packageRoot.appendingPathComponent("Migrations/kiosk").path) {
            try FileManager.default.copyItem(at: BuiltProducts.packageRoot.appendingPathComponent("Migrations/kiosk/\(file)"), to: migrations.appendingPathComponent(file))
        }
        try "ALTER TABLE guests ADD COLUMN broken BROKEN NOT NULL;".write(to: migrations.appendingPathComponent("0099_broken.sql"), atomically: true, encoding: .utf8)
        let environment = ["KIOSK_MIGRATIONS_DIR": migrations.path]
        let status = try run(kiosk, ["status", "--data-dir", data, "--json"], environment: environment)
        #expect(status.status == 0)
        let storage = try #require(try status.json()["storage"] as? [String: Any])
        #expect(storage["state"] as? String == "migration_failed")
        #expect(storage["migration"] as? String == "0099_broken")
        #expect(storage["action"] as? String == "Contact support")
        #expect((storage["error"] as? String)?.isEmpty == false)
        #expect(((try status.json()["sync"]) as? [String: Any])?["pending"] as? Int == 1)
        let checkIn = try run(kiosk, ["checkin", "ABC2", "--data-dir", data, "--json"], environment: environment)
        #expect(checkIn.status == 75)
        let healthy = try run(kiosk, ["status", "--data-dir", data, "--json"])
        #expect(((try healthy.json()["storage"]) as? [String: Any])?["state"] as? String == "ok")
    }
}
