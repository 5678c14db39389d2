import Foundation
import KioskTestSupport
import Testing

/// `checkin-hub import` runs the importer the dashboard's upload runs (``RosterImport``): the
/// same refusals, in the same words, for the same files.
@Suite(.tags(.endToEnd), .endToEnd, .blocking) struct RosterImportCommandTests {
    @Test func theCommandRefusesWhatTheUploadRefusesInTheSameWords() throws {
        let directory = TemporaryDirectory("import-command")
        defer { directory.remove() }
        let database = "sqlite:" + directory.appending("hub.sqlite").path
        let created = try run(RealHub.executable, ["event", "create", "--db", database, "--name", "Gala", "--json"])
        let event = try #require(try created.json()["id"] as? String)

        let renamed = directory.appending("guests.xlsx")
        try "code,name\nA1,Ana\n".write(to: renamed, atomically: true, encoding: .utf8)
        let text = try run(RealHub.executable, ["import", "--db", database, "--event", event, renamed.path])
        #expect(text.status != 0)
        #expect(text.stderr.contains("is named like an Excel workbook (.xlsx) but is not one"))

        let blob = directory.appending("photo.csv")
        try Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: blob)
        let binary = try run(RealHub.executable, ["import", "--db", database, "--event", event, blob.path])
        #expect(binary.status != 0)
        #expect(binary.stderr.contains("neither text (CSV) nor an Excel workbook"))

        let rejected = directory.appending("guests.csv")
        try "code,name\nA1,Ana\n,Nobody\n".write(to: rejected, atomically: true, encoding: .utf8)
        let replace = try run(RealHub.executable, ["import", "--db", database, "--event", event, rejected.path, "--replace"])
        #expect(replace.status != 0)
        #expect(replace.stderr.contains("so --replace would revoke those guests. Nothing was changed"))

        let imported = try run(RealHub.executable, ["import", "--db", database, "--event", event, rejected.path, "--json"]).json()
        #expect(imported["imported"] as? Int == 1)
        #expect((imported["rejected"] as? [[String: Any]])?.first?["line"] as? Int == 3)
    }
}
