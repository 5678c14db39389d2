import Foundation
import KioskTestSupport
import Testing

@Suite(.timeLimit(.minutes(2)), .tags(.endToEnd), .endToEnd, .blocking)
struct KioskSetupTests {
    @Test func installScriptDryRunRendersAndVerifiesTheUnitWithoutChangingTheMachine() throws {
        let stage = TemporaryDirectory("kiosk-stage")
        defer { stage.remove() }
        let result = try run(URL(fileURLWithPath: "/bin/bash"), [
            BuiltProducts.packageRoot.appendingPathComponent("Kiosk/install-station.sh").path,
            "--dry-run", "--binary", BuiltProducts.executable("kiosk").path, "--stage", stage.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") || FileManager.default.isExecutableFile(atPath: "/bin/systemd-analyze") {
            #expect(result.stdout.contains("unit verified"))
            // systemd-analyze security --offline=yes: 5.4 before the unit was hardened.
            let exposure = result.stdout.split(separator: "\n").first { $0.hasPrefix("unit exposure: ") }
                .flatMap { Double($0.dropFirst("unit exposure: ".count)) }
            #expect(exposure.map { $0 <= 2.0 } == true, "\(result.stdout)")
        }
        #expect(result.stdout.contains("+ systemctl enable --now checkin-kiosk.service"))
        let unit = try String(contentsOf: stage.appending("checkin-kiosk.service"), encoding: .utf8)
        #expect(unit.contains("TTYPath=/dev/tty1"))
        #expect(unit.contains("Restart=always"))
        #expect(unit.contains("SupplementaryGroups=video lp\n"), "no tty group")
        #expect(unit.contains("CapabilityBoundingSet=\n"))
        #expect(!result.stdout.contains(",tty"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/systemd/system/checkin-kiosk.service") || ProcessInfo.processInfo.environment["KIOSK_INSTALLED"] != nil)
    }
}
