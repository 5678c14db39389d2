import Foundation
import KioskTestSupport
import Testing

@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
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
        // The storage key is sealed by kiosk itself, which says how well it is protected.
        #expect(result.stdout.contains("+ /usr/local/bin/kiosk storage seal --data-dir /var/lib/checkin-kiosk"), "\(result.stdout)")
        let unit = try String(contentsOf: stage.appending("checkin-kiosk.service"), encoding: .utf8)
        #expect(unit.contains("TTYPath=/dev/tty1"))
        #expect(unit.contains("Restart=always"))
        #expect(unit.contains("SupplementaryGroups=video lp\n"), "no tty group")
        #expect(unit.contains("CapabilityBoundingSet=\n"))
        #expect(!result.stdout.contains(",tty"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/systemd/system/checkin-kiosk.service") || ProcessInfo.processInfo.environment["KIOSK_INSTALLED"] != nil)
    }

    /// The station's unit as systemd reads it (`systemd-analyze security --offline=yes --json=short`,
    /// its DeviceAllow= line): the devices the station's own hardware needs and nothing else. No raw
    /// USB (no part of the station talks to a USB device directly: CUPS's backends print, the
    /// kernel's drivers give the camera and scanners); `/dev/tpmrm0` and `char-rtc` are systemd's
    /// own additions for the sealed credential and ProtectClock=.
    @Test func theStationsUnitGrantsOnlyTheDevicesItsHardwareNeeds() throws {
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let analyze else { return }
        let stage = TemporaryDirectory("unit-devices")
        defer { stage.remove() }
        let unit = stage.appending("checkin-kiosk.service")
        let text = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Kiosk/checkin-kiosk.service"), encoding: .utf8)
        try text.replacingOccurrences(of: "/usr/bin/kiosk ", with: BuiltProducts.executable("kiosk").path + " ")
            .write(to: unit, atomically: true, encoding: .utf8)
        let security = try run(URL(fileURLWithPath: analyze), ["security", "--offline=yes", "--json=short", unit.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(security.stdout.utf8)) as? [[String: Any]], "\(security.stderr)")
        let deviceAllow = try #require(rows.first { $0["name"] as? String == "DeviceAllow=" }?["description"] as? String)
        let granted = Set(deviceAllow.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").map(String.init) } ?? [])
        #expect(granted == ["/dev/tty1:rw", "char-video4linux:rw", "char-input:r", "char-ttyACM:r", "/dev/tpmrm0:rw", "char-rtc:r"],
                "\(deviceAllow)")
        #expect(text.contains("SupplementaryGroups=video lp\n"), "video for the camera, lp for CUPS; nothing else")
    }

    /// The udev rule gives each scanner to the station's own group, read-only: a scanner is not a
    /// video device, and group `video` (the camera's) would hand it to every other member.
    @Test func theUdevRuleGivesScannersToTheKioskGroupOnly() throws {
        let rules = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Kiosk/99-checkin-kiosk.rules"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let scanners = rules.filter { $0.contains("SYMLINK+=\"kiosk-scanner") }
        #expect(scanners.count == 2, "the serial and the evdev scanner: \(scanners)")
        for rule in scanners {
            #expect(rule.contains("GROUP=\"kiosk\"") && rule.contains("MODE=\"0640\""), "\(rule)")
        }
        let camera = try #require(rules.first { $0.contains("SYMLINK+=\"kiosk-camera\"") })
        #expect(camera.contains("GROUP=\"video\""))
    }

    /// The packages' units (Kiosk/build-deb.sh ships them as they are): the hub's service and the
    /// station's path unit verify, and the hub's service is hardened as the station's is.
    @Test func packagedUnitsVerifyAndTheHubsServiceIsHardened() throws {
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let analyze else { return }
        let stage = TemporaryDirectory("package-units")
        defer { stage.remove() }
        let kiosk = BuiltProducts.packageRoot.appendingPathComponent("Kiosk")
        // ExecStart must name an existing file for verify: the built binaries stand in for /usr/bin's.
        for (unit, binary) in [("checkin-hub.service", "checkin-hub"), ("checkin-kiosk.service", "kiosk")] {
            let text = try String(contentsOf: kiosk.appendingPathComponent(unit), encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/bin/\(binary) "))
            try text.replacingOccurrences(of: "/usr/bin/\(binary) ", with: BuiltProducts.executable(binary).path + " ")
                .write(to: stage.appending(unit), atomically: true, encoding: .utf8)
        }
        try FileManager.default.copyItem(at: kiosk.appendingPathComponent("checkin-kiosk.path"), to: stage.appending("checkin-kiosk.path"))
        let units = ["checkin-hub.service", "checkin-kiosk.path", "checkin-kiosk.service"].map { stage.appending($0).path }
        let verify = try run(URL(fileURLWithPath: analyze), ["verify"] + units)
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify.stdout)\(verify.stderr)")
        let security = try run(URL(fileURLWithPath: analyze), ["security", "--offline=yes", "--threshold=20", stage.appending("checkin-hub.service").path])
        #expect(security.status == 0, "exposure above 2.0: \(security.stdout.suffix(300))")
        // The path unit starts the station only once its configuration exists.
        let path = try String(contentsOf: kiosk.appendingPathComponent("checkin-kiosk.path"), encoding: .utf8)
        #expect(path.contains("PathExists=/etc/checkin-kiosk/kiosk.conf\n"))
        #expect(path.contains("Unit=checkin-kiosk.service\n"))
    }
}
