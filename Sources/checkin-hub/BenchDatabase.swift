import ArgumentParser
import Foundation
import HubAPI
import HubServer

/// The database a benchmark writes into (`--db`), never an organizer's (security review F7): an
/// SQLite file that does not exist yet, which the benchmark removes when it ends; or a
/// PostgreSQL database that holds nothing but earlier benchmarks' events and accounts, from
/// which it removes its own when it ends.
enum BenchDatabase {
    /// How a benchmark's rows are told from anyone else's.
    static let eventPrefix = "bench_"
    static func isBenchAccount(_ email: String) -> Bool { email.hasPrefix("bench-" + eventPrefix) && email.hasSuffix("@example.invalid") }

    /// Checks that `db` is one a benchmark may write into.
    /// - Throws: `ValidationError` saying which database to give instead.
    static func claim(_ db: String) async throws {
        if db.hasPrefix("sqlite:") {
            let path = String(db.dropFirst("sqlite:".count))
            guard !FileManager.default.fileExists(atPath: path) else {
                throw ValidationError("""
                    \(db) already exists: a benchmark writes only into a new database file, and removes it when it ends. \
                    Give a path that does not exist (delete this one if an interrupted benchmark left it; never a hub's own database).
                    """)
            }
            return
        }
        let foreign = try await DatabaseOptions.parse(["--db", db]).withStore { store in
            let events = try await store.events().map(\.id).filter { !$0.hasPrefix(eventPrefix) }
            let staff = try await store.staffAccounts(event: nil).map(\.info.email).filter { !isBenchAccount($0) }
            return (events: events.count, staff: staff.count)
        }
        guard foreign.events == 0, foreign.staff == 0 else {
            throw ValidationError("""
                The database of --db holds \(foreign.events) event(s) and \(foreign.staff) staff account(s) that are not a benchmark's: \
                a benchmark writes only into a database of its own. Create an empty one (createdb) and give that.
                """)
        }
    }

    /// Removes what `event` made: the SQLite file with its `-wal` and `-shm`, or on PostgreSQL
    /// the event with every row of it and the accounts with their sessions. Reports a failure
    /// on stderr (the figures are printed already) rather than hiding it.
    static func release(_ db: String, event: BenchEvent) async {
        if db.hasPrefix("sqlite:") {
            let path = String(db.dropFirst("sqlite:".count))
            for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
                do { try FileManager.default.removeItem(atPath: file) } catch { printError("The benchmark could not remove \(file): \(error.localizedDescription).") }
            }
            return
        }
        do {
            try await DatabaseOptions.parse(["--db", db]).withStore { store in
                guard let shared = store as? SQLHubStore, shared.kind == "postgres" else { return }
                var staffIDs: [String] = []
                for email in event.accounts { if let found = try await store.staff(email: email) { staffIDs.append(found.info.id) } }
                try await shared.removeBenchRun(event: event.id, staffIDs: staffIDs)
            }
        } catch {
            printError("The benchmark could not remove its event \(event.id) and account from the database of --db: \(error). Remove them by hand.")
        }
    }
}
