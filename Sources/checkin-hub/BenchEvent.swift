import ArgumentParser
import CheckInCore
import HubAPI
import HubServer
import RosterCSV

/// A fresh event for one benchmark run, with its roster, and an organizer to drive it: the
/// simulated stations upload under many device ids from one session, which staff and support
/// sessions may not (they speak only for their registered device).
struct BenchEvent {
    let id: String
    let email: String
    let password: String

    /// Creates it in `db` with one guest per `row(i)` for `i` in `0..<guests`.
    static func create(in db: String, name: String, guests: Int, row: (Int) -> RosterRow) async throws -> BenchEvent {
        let id = "bench_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let event = BenchEvent(id: id, email: "bench-\(id)@example.invalid", password: Tokens.token())
        let rows = (0..<guests).map(row)
        try await DatabaseOptions.parse(["--db", db]).withStore { store in
            try await store.createEvent(EventSummary(id: id, name: name, startsAt: nil, endsAt: nil, timeZone: "UTC",
                                                     toleranceWindowMilliseconds: 30_000, stationUndoMilliseconds: 300_000))
            _ = try await store.importRoster(event: id, rows: rows)
            try await store.addStaff(StaffInfo(id: Tokens.identifier("st"), email: event.email, name: "Bench", role: .organizer),
                                     passwordHash: try PasswordHasher.hash(event.password))
        }
        return event
    }
}
