import Foundation
import KioskTestSupport
import Testing

/// A roster imported with `kiosk import`, no hub: `kiosk access-type set Crew --reentry` lets a
/// crew member back in, and `kiosk entrance --admits` makes this door refuse the other types with
/// the usual "not valid for this entrance".
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "needs Debian's faketime"))
struct StandaloneAccessRulesTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func aReentryTypeComesBackInAndAnEntranceRefusesTheTypesItDoesNotAdmit() throws {
        let directory = TemporaryDirectory("standalone-access")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let csv = directory.appending("roster.csv")
        try "code,name,email,access_type\nCREW-1,Carla Crew,carla@example.org,Crew\nGEN-1,Gus General,gus@example.org,General\nGEN-2,Gina General,gina@example.org,General\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let imported = try run(kiosk, ["import", csv.path, "--data-dir", data])
        #expect(imported.status == 0, "\(imported.stderr)")

        let reentry = try run(kiosk, ["access-type", "set", "Crew", "--reentry", "--data-dir", data])
        #expect(reentry.status == 0, "\(reentry.stdout) \(reentry.stderr)")
        let unknown = try run(kiosk, ["access-type", "set", "Backstage", "--reentry", "--data-dir", data])
        #expect(unknown.status != 0 && unknown.stderr.contains("Crew, General"), "\(unknown.stderr)")

        // In ten minutes ago, back in now: the crew pass comes back in, a general ticket does not.
        for code in ["CREW-1", "GEN-1"] {
            let first = try run(URL(fileURLWithPath: "/usr/bin/faketime"), ["-f", "-10m", kiosk.path, "checkin", code, "--data-dir", data])
            #expect(first.status == 0, "\(code): \(first.stdout) \(first.stderr)")
        }
        let crewAgain = try run(kiosk, ["checkin", "CREW-1", "--data-dir", data])
        #expect(crewAgain.status == 0, "\(crewAgain.stdout)")
        let generalAgain = try run(kiosk, ["checkin", "GEN-1", "--data-dir", data])
        #expect(generalAgain.status == 11, "\(generalAgain.stdout)")

        // This door admits crew only.
        let entrance = try run(kiosk, ["entrance", "--admits", "Crew", "--data-dir", data])
        #expect(entrance.status == 0 && entrance.stdout.contains("Crew"), "\(entrance.stdout) \(entrance.stderr)")
        let refused = try run(kiosk, ["checkin", "GEN-2", "--data-dir", data])
        #expect(refused.status == 13 && refused.stdout.contains("Not valid for this entrance (General)"), "\(refused.stdout)")
        let shown = try run(kiosk, ["entrance", "--data-dir", data, "--json"]).json()
        #expect(shown["admits"] as? [String] == ["Crew"], "\(shown)")

        // Every type again.
        #expect(try run(kiosk, ["entrance", "--admits-all", "--data-dir", data]).status == 0)
        #expect(try run(kiosk, ["checkin", "GEN-2", "--data-dir", data]).status == 0)
    }
}
