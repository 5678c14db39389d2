import ArgumentParser
import Foundation
import KioskStore
import Logging

/// Options every station command shares.
struct StationOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Station data directory (default: $KIOSK_DATA_DIR; else /var/lib/checkin-kiosk as a system service, or for root where it exists; else $XDG_DATA_HOME/checkin-kiosk).")
    var dataDirectory: String?

    @Flag(name: .long, help: "Print one JSON document on stdout (human text goes to stderr).")
    var json = false

    @Option(name: .customLong("storage-key-file"), help: "Key file that opens the station's data (default: $KIOSK_STORAGE_KEY_FILE; on a systemd station the credential kiosk-storage-key; else one per store under ~/.config/checkin-kiosk/keys).")
    var storageKeyFile: String?

    /// Where the storage key comes from for this command (on a removable medium when the data
    /// directory says so).
    var keySource: StorageKeySource { .resolve(keyFile: storageKeyFile, dataDirectory: dataDirectoryURL) }

    /// Where this box keeps a storage key itself (the sealed credential or a key file): what a
    /// recovery or a move back from the medium puts a new key into.
    var boxKeySource: StorageKeySource { .resolve(keyFile: storageKeyFile) }

    var dataDirectoryURL: URL {
        dataDirectory.map { URL(fileURLWithPath: $0) } ?? DataDirectory.processDefault
    }

    /// Opens the station database, applying migrations first (embedded ones, or those of
    /// `$KIOSK_MIGRATIONS_DIR` when support sets it).
    func openDatabase(keepRoot: Bool = false) throws -> KioskDatabase {
        CommandOutput.bootstrapLogging()
        var migrations = Migration.embedded
        if let override = ProcessInfo.processInfo.environment["KIOSK_MIGRATIONS_DIR"], !override.isEmpty {
            migrations = try Migration.load(from: URL(fileURLWithPath: override))
        }
        do {
            let key = try StorageKeySource.forCommand(keyFile: storageKeyFile, dataDirectory: dataDirectoryURL, keepRoot: keepRoot)
            return try KioskDatabase.open(dataDirectory: dataDirectoryURL, migrations: migrations, key: key)
        } catch {
            let status = switch error {
            case .diskFull: ExitStatus.diskFull
            case .notOwner: ExitStatus.notOwner
            case .storageKey: ExitStatus.storageUnavailable
            default: ExitStatus.storage
            }
            throw CommandFailure(error.description, exitCode: status)
        }
    }
}
