import CheckInCore
import Foundation
import GRDB
import HubAPI
import KioskStore
import KioskTestSupport
import RosterSync
import Testing

/// A station of the version before 0011 (guest ids were the hub's, ticket codes for an imported
/// roster), with check-ins queued while the hub was away, one of which the hub had already
/// recorded when its answer was lost. After the upgrade (real `kiosk signin` and `kiosk sync`
/// against a real hub) each reaches the hub exactly once, under the key it had there, and no
/// code is left in clear.
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking, .enabled(if: RealHub.available, "needs the checkin-hub server"))
struct GuestIDUpgradeTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func checkInsQueuedBeforeTheUpgradeReachTheHubExactlyOnceAndNoCodeStaysInClear() async throws {
        let hub = try RealHub(guests: 10)
        defer { hub.remove() }
        let directory = TemporaryDirectory("guest-id-upgrade")
        defer { directory.remove() }
        let data = directory.appending("data")
        let t0 = Timestamp.now().milliseconds - 120_000

        let (device, secret) = try await Self.version10Station(data, hub: hub, t0: t0)
        // The hub recorded the first one; its answer never reached the station.
        let client = try HubClient(baseURL: try #require(URL(string: hub.url)))
        let pair = try await client.signIn(email: hub.email, password: hub.password)
        _ = try await client.registerStation(token: pair.accessToken, name: "Door A", deviceID: device, deviceSecret: secret)
        let first = IdempotencyKey(deviceID: device, guestID: "CODE000001", scannedAt: Timestamp(milliseconds: t0))
        let recorded = try await client.upload(token: pair.accessToken, event: hub.eventID, checkIns: CheckInBatch(items: [
            CheckIn(key: first, station: "Door A", operatorName: "Alex", source: .scanner),
        ]))
        #expect(recorded.results.map(\.status) == [.accepted])

        // The new version: sign-in (the upgrade runs first), then the queued uploads.
        let signin = try run(kiosk, ["signin", "--hub", hub.url, "--email", hub.email, "--station", "Door A", "--password-env", "PW",
                                     "--data-dir", data.path], environment: ["PW": hub.password])
        #expect(signin.status == 0, "\(signin.stderr)")
        let synced = try run(kiosk, ["sync", "--json", "--data-dir", data.path])
        #expect(synced.status == 0, "\(synced.stderr)")
        let pushed = try synced.json()["pushed"] as? [String: Any]
        #expect(pushed?["accepted"] as? Int == 2 && pushed?["rejected"] as? Int == 0, "\(synced.stdout)")
        let again = try run(kiosk, ["sync", "--json", "--data-dir", data.path]).json()["pushed"] as? [String: Any]
        #expect(again?["accepted"] as? Int == 0, "nothing is sent twice")

        let stats = try hub.stats()
        #expect(stats["checked_in"] as? Int == 2)
        #expect(stats["duplicates"] as? Int == 0, "the replayed key is the same check-in, not a second admission")
        let page = try await client.roster(token: pair.accessToken, event: hub.eventID, cursor: 0, limit: 1_000)
        let keys = page.checkIns.map(\.key.description).sorted()
        #expect(keys == [first.description, "\(device)/CODE000002/\(t0 + 1_000)"].sorted(), "one row each, under the key the hub had")

        let status = try run(kiosk, ["status", "--json", "--data-dir", data.path]).json()
        #expect((status["sync"] as? [String: Any])?["pending"] as? Int == 0)
        let codes = (0..<10).map { String(format: "CODE%06d", $0) }
        let leaks = PlaintextLeaks.find(codes, under: data)
        #expect(leaks.isEmpty, "\(leaks)")
    }

    /// The station as version 10 left it: the hub's roster downloaded (ids = codes), two
    /// check-ins queued. Returns its device id and secret; the store is closed on return.
    static func version10Station(_ data: URL, hub: RealHub, t0: Int64) async throws -> (String, String) {
        let old = try KioskDatabase.open(dataDirectory: data, migrations: Array(Migration.embedded.prefix(10)))
        let device = old.deviceID
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO settings (key, value) VALUES ('hub_url', ?1), ('sync_event_id', ?2), ('sync_event_name', 'Sync Test'),
                    ('sync_cursor', '0'), ('sync_complete', '1'), ('station_name', 'Door A')
                """, arguments: [hub.url, hub.eventID])
            try db.execute(sql: "INSERT INTO outbox_events (hub_url, event_id, name) VALUES (?, ?, 'Sync Test')", arguments: [hub.url, hub.eventID])
            try db.execute(sql: "INSERT INTO access_types (id, name, updated_at) VALUES ('general', 'General', 1)")
            for index in 0..<10 {
                let code = String(format: "CODE%06d", index)
                try db.execute(sql: """
                    INSERT INTO guests (id, code, sealed, access_type_id, from_hub, updated_at)
                    VALUES (?1, kiosk_code_digest(?1), kiosk_seal_guest(?1, ?2, '', ''), 'general', 1, 1)
                    """, arguments: [code, "Guest \(index)"])
            }
            for (index, code) in ["CODE000001", "CODE000002"].enumerated() {
                let at = t0 + Int64(index) * 1_000
                let key = "\(device)/\(code)/\(at)"
                let payload = #"{"direction":"entry","key":{"deviceID":"\#(device)","guestID":"\#(code)","scannedAt":\#(at)},"operatorName":"Alex","source":"scanner","station":"Door A"}"#
                try db.execute(sql: """
                    INSERT INTO check_ins (idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at, origin)
                    VALUES (?, ?, ?, 'Door A', 'Alex', 'scanner', 'entry', ?, 'local')
                    """, arguments: [key, code, device, at])
                try db.execute(sql: """
                    INSERT INTO outbox (kind, ref, payload, created_at, sort_at, hub_url, event_id, guest_id)
                    VALUES ('checkin', ?, kiosk_seal(?), ?, ?, ?, ?, ?)
                    """, arguments: [key, payload, at, at, hub.url, hub.eventID, code])
            }
        }
        return (device, try await old.deviceSecret())
    }
}
