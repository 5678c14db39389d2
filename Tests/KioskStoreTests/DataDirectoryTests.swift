import Foundation
import KioskStore
import Testing

/// Where a command finds the station's data when no --data-dir is given.
@Suite struct DataDirectoryTests {
    @Test func rootOnAnInstalledStationUsesTheSystemDirectory() {
        let url = DataDirectory.defaultURL(environment: ["HOME": "/root"], userID: 0, systemDirectoryExists: { true })
        #expect(url.path == "/var/lib/checkin-kiosk")
    }

    @Test func rootWithoutAnInstalledStationUsesItsOwnDirectory() {
        let url = DataDirectory.defaultURL(environment: ["HOME": "/root"], userID: 0, systemDirectoryExists: { false })
        #expect(url.path == "/root/.local/share/checkin-kiosk")
    }

    @Test func anExplicitDirectoryWinsOverTheSystemOne() {
        let explicit = DataDirectory.defaultURL(environment: ["KIOSK_DATA_DIR": "/srv/door"], userID: 0, systemDirectoryExists: { true })
        #expect(explicit.path == "/srv/door")
        let xdg = DataDirectory.defaultURL(environment: ["XDG_DATA_HOME": "/tmp/x"], userID: 0, systemDirectoryExists: { true })
        #expect(xdg.path == "/tmp/x/checkin-kiosk")
    }

    @Test func anOrdinaryUserNeverGetsTheSystemDirectory() {
        let url = DataDirectory.defaultURL(environment: ["HOME": "/home/alex"], userID: 1000, systemDirectoryExists: { true })
        #expect(url.path == "/home/alex/.local/share/checkin-kiosk")
    }

    @Test func theStationServiceUsesTheSystemDirectory() {
        let url = DataDirectory.defaultURL(environment: ["INVOCATION_ID": "x", "HOME": "/"], userID: 105, systemDirectoryExists: { false })
        #expect(url.path == "/var/lib/checkin-kiosk")
    }
}
