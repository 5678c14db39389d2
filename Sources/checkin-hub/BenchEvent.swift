import ArgumentParser
import CheckInCore
import HubAPI
import HubServer
import RosterCSV

/// A fresh event for one benchmark run, with its roster, and an organizer to drive it: the
/// simulated stations upload under many device ids from one session, which staff and support
/// sessions may not (they speak only for their registered device). Made only in a database the
/// benchmark may write into (``BenchDatabase``), and removed with it when the run ends.
struct BenchEvent {
    let id: String
    let email: String
    let password: String
    /// Every account made for the run (the organizer's first; ``addStaff(in:)`` adds more).
    var accounts: [String] { [email] + extraAccounts }
    private(set) var extraAccounts: [String] = []

    init(id: String, email: String, password: String) {
        self.id = id
        self.email = email
        self.password = password
    }

    /// Creates it in `db` with one guest per `row(i)` for `i` in `0..<guests`.
    /// - Throws: `ValidationError` when `db` is not one a benchmark may write into.
    static func create(in db: String, name: String, guests: Int, row: (Int) -> RosterRow) async throws -> BenchEvent {
        try await BenchDatabase.claim(db)
        let id = BenchDatabase.eventPrefix + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let event = BenchEvent(id: id, email: "bench-\(id)@example.invalid", password: Tokens.token())
        let rows = (0..<guests).map(row)
        try await DatabaseOptions.parse(["--db", db]).withStore { store in
            try await store.createEvent(EventSummary(id: id, name: name, startsAt: nil, endsAt: nil, timeZone: "UTC",
                                                     toleranceWindowMilliseconds: 30_000, stationUndoMilliseconds: 300_000), audit: nil)
            _ = try await store.importRoster(event: id, rows: rows, replace: false, audit: nil)
            try await store.addStaff(StaffInfo(id: Tokens.identifier("st"), email: event.email, name: "Bench", role: .organizer),
                                     passwordHash: try PasswordHasher.hash(event.password), audit: nil)
        }
        return event
    }

    /// Adds a check-in staff account assigned to the event; its e-mail (the event's password).
    mutating func addStaff(in db: String, _ suffix: String) async throws -> String {
        let email = "bench-\(id)-\(suffix)@example.invalid"
        let (id, password) = (id, password)
        try await DatabaseOptions.parse(["--db", db]).withStore { store in
            try await store.addStaff(StaffInfo(id: Tokens.identifier("st"), email: email, name: "Bench \(suffix)", role: .staff),
                                     passwordHash: try PasswordHasher.hash(password), audit: nil)
            _ = try await store.assign(event: id, emails: [email], now: .now(), audit: nil)
        }
        extraAccounts.append(email)
        return email
    }

    /// Runs `measure`, then removes the event and its accounts (``BenchDatabase/release(_:event:)``),
    /// whether it succeeded or not.
    func whileRunning(in db: String, _ measure: () async throws -> Void) async throws {
        do {
            try await measure()
        } catch {
            await BenchDatabase.release(db, event: self)
            throw error
        }
        await BenchDatabase.release(db, event: self)
    }
}
