import ArgumentParser
import Foundation
import KioskStore
import Logging

/// Options every station command shares.
struct StationOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Station data directory (default: $KIOSK_DATA_DIR, else $XDG_DATA_HOME/checkin-kiosk, or /var/lib/checkin-kiosk as a system service).")
    var dataDirectory: String?

    @Flag(name: .long, help: "Print one JSON document on stdout (human text goes to stderr).")
    var json = false

    var dataDirectoryURL: URL {
        dataDirectory.map { URL(fileURLWithPath: $0) } ?? DataDirectory.defaultURL()
    }

    /// Opens the station database, applying migrations first (embedded ones, or those of
    /// `$KIOSK_MIGRATIONS_DIR` when support sets it).
    func openDatabase() throws -> KioskDatabase {
        CommandOutput.bootstrapLogging()
        var migrations = Migration.embedded
        if let override = ProcessInfo.processInfo.environment["KIOSK_MIGRATIONS_DIR"], !override.isEmpty {
            migrations = try Migration.load(from: URL(fileURLWithPath: override))
        }
        do {
            return try KioskDatabase.open(dataDirectory: dataDirectoryURL, migrations: migrations)
        } catch {
            let status = switch error {
            case .diskFull: ExitStatus.diskFull
            case .notOwner: ExitStatus.notOwner
            default: ExitStatus.storage
            }
            throw CommandFailure(error.description, exitCode: status)
        }
    }
}
