import PrintTestSupport
import Foundation
import KioskTestSupport
import Testing

extension PrivateCupsTests {
    /// `kiosk badge` and `kiosk printers` as operators and acceptance checks call them.
    @Suite("kiosk badge and printers", .serialized, .hangGuard, .blocking)
    struct BadgeCommandLineTests {
        let kiosk = BuiltProducts.executable("kiosk")

        func station() throws -> TemporaryDirectory {
            let directory = TemporaryDirectory("badge-cli")
            let csv = directory.appending("roster.csv")
            try "name,email,company,code,access_type\n王小明,w@example.cn,北京科技,ABC1,VIP\n".write(to: csv, atomically: true, encoding: .utf8)
            let imported = try run(kiosk, ["import", csv.path, "--data-dir", directory.appending("data").path, "--json"])
            #expect(imported.status == 0)
            return directory
        }

        @Test("--pdf renders a preview without a printer; an unknown code is refused")
        func preview() throws {
            let directory = try station()
            defer { directory.remove() }
            let pdf = directory.appending("badge.pdf")
            let result = try run(kiosk, ["badge", "ABC1", "--data-dir", directory.appending("data").path, "--pdf", pdf.path, "--json"])
            #expect(result.status == 0)
            #expect(try result.json()["output"] as? String == pdf.path)
            #expect(try PDFTools.text(pdf).contains("王小明"))
            let unknown = try run(kiosk, ["badge", "NOPE", "--data-dir", directory.appending("data").path, "--pdf", pdf.path, "--json"])
            #expect(unknown.status == 12)
        }

        @Test("--printer reports printed on a healthy queue and needs_attention when paused; printers lists the queue")
        func printAndList() throws {
            let directory = try station()
            let rig = try CupsRig()
            defer { rig.stop(); directory.remove() }
            let data = directory.appending("data").path
            let printed = try run(kiosk, ["badge", "ABC1", "--data-dir", data, "--printer", "badge", "--json"], environment: ["CUPS_SERVER": rig.server])
            let json = try printed.json()
            #expect(printed.status == 0)
            #expect(json["state"] as? String == "printed")
            #expect(json["ms_submit"] is Double && json["ms_final"] is Double && json["job"] is Int)
            try rig.cups("cupsdisable", ["-r", "Reloading labels", "badge"])
            let paused = try run(kiosk, ["badge", "ABC1", "--data-dir", data, "--printer", "badge", "--reprint", "--timeout", "2", "--json"],
                                 environment: ["CUPS_SERVER": rig.server])
            #expect(paused.status == 21)
            #expect(try paused.json()["state"] as? String == "needs_attention")
            #expect((try paused.json()["reason"] as? String)?.contains("paused") == true)
            let printers = try run(kiosk, ["printers", "--json"], environment: ["CUPS_SERVER": rig.server])
            let list = try #require(try printers.json()["printers"] as? [[String: Any]])
            #expect(list.first?["name"] as? String == "badge")
            #expect(list.first?["state"] as? String == "stopped")
            #expect((list.first?["media"] as? [String])?.isEmpty == false)
        }
    }
}
