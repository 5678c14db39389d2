import ArgumentParser
import Foundation
import KioskStore

/// `kiosk storage`: where the storage key is, and what to do when it changes or is lost.
struct StorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract: "The storage key that opens the station's encrypted guest data.",
        discussion: """
            Guest data is encrypted with a data key kept in the database only wrapped by the storage \
            key (on a systemd station the credential kiosk-storage-key, else a key file outside the \
            data directory; after move-key --to-removable, a key file on a USB stick) and, once made, \
            by a recovery key kept on paper.
            """,
        subcommands: [Show.self, RecoveryKey.self, Rekey.self, MoveKey.self, Seal.self, Recover.self, OpenBackup.self, Purge.self],
        defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Say where the storage key is and whether a recovery key exists (never the keys).")
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                let info = try options.openDatabase().storageKeyInfo()
                if options.json {
                    CommandOutput.printJSON(["store": .string(info.storeID), "key": .string(info.keyLocation),
                                             "storage_keys": .int(info.storageKeys), "recovery_key": .bool(info.hasRecoveryKey),
                                             "protection": .string(info.protection.rawValue), "same_disk": .bool(info.protection.sameDiskAsData),
                                             "message": .string(info.protection.words), "fix": .optional(info.protection.advice)])
                } else {
                    print("Store \(info.storeID): opened by \(info.keyLocation).")
                    print("Protected by \(info.protection.words).")
                    if let advice = info.protection.advice { print(advice) }
                    print(info.hasRecoveryKey ? "A recovery key exists (on paper, not on this box)."
                          : "No recovery key yet: make one with `kiosk storage recovery-key` and keep it on paper.")
                }
                return 0
            }
        }
    }

    struct RecoveryKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-key",
            abstract: "Make a recovery key and print it once; earlier recovery keys stop working.",
            discussion: "Write it on paper and keep it away from the box: with it, `kiosk storage recover` opens this station's data when the box or its key is gone.")
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                let database = try options.openDatabase()
                let key = try database.makeRecoveryKey()
                if options.json {
                    CommandOutput.printJSON(["store": .string(database.storeID), "recovery_key": .string(key.recoveryText)])
                } else {
                    print("Recovery key for store \(database.storeID) (shown once; keep it on paper, away from the box):")
                    print("")
                    print("    \(key.recoveryText)")
                    print("")
                }
                return 0
            }
        }
    }

    struct Rekey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the storage key (the data key it wraps stays; nothing is re-encrypted).",
            discussion: "Safe to interrupt: the station opens with the old or the new key, whichever is in place.")
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                // Root can become root again to seal the new credential.
                let database = try options.openDatabase(keepRoot: true)
                let delay = ProcessInfo.processInfo.environment["KIOSK_REKEY_STEP_DELAY_MS"].flatMap(Int.init).map(Duration.milliseconds) ?? .zero
                let location = try database.rekey(to: options.keySource, stepDelay: delay)
                if options.json {
                    CommandOutput.printJSON(["store": .string(database.storeID), "key": .string(location)])
                } else {
                    print("New storage key in \(location).")
                }
                return 0
            }
        }
    }

    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open the data with the recovery key and give it a new storage key.",
            discussion: """
                For a surviving disk of a dead box, or a station whose credential or key file is gone. \
                The recovery key is read from standard input (one line), so it stays out of the shell's history.
                """)
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                CommandOutput.bootstrapLogging()
                guard let line = readLine(strippingNewline: true), let recovery = StorageKey(recoveryText: line) else {
                    throw CommandFailure("That is not a recovery key: 64 hex digits in groups of four, as printed by `kiosk storage recovery-key`.",
                                         exitCode: ExitStatus.badInput)
                }
                // Resolved as root: the sealed credential on a systemd station; never a removable
                // medium the data directory names (the key there is what was lost).
                let target = options.boxKeySource
                try DataDirectory.actAsOwner(of: options.dataDirectoryURL, reversibly: true)
                let (database, location) = try KioskDatabase.recover(dataDirectory: options.dataDirectoryURL, recoveryKey: recovery,
                                                                     into: target)
                if options.json {
                    CommandOutput.printJSON(["store": .string(database.storeID), "key": .string(location)])
                } else {
                    print("Store \(database.storeID) opened with the recovery key; its new storage key is in \(location).")
                    print("The recovery key still works; make a new one with `kiosk storage recovery-key` if the old paper was exposed.")
                }
                return 0
            }
        }
    }

    struct OpenBackup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open-backup",
            abstract: "Decrypt a sealed backup (backups/kiosk-vN-….sqlite.sealed) of this station to a SQLite file.")
        @Argument(help: "The sealed backup.") var backup: String
        @Argument(help: "The SQLite file to write (0600). It holds guest data in clear: delete it when done.") var output: String
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                let database = try options.openDatabase()
                try database.openBackup(URL(fileURLWithPath: backup), to: URL(fileURLWithPath: output))
                if options.json { CommandOutput.printJSON(["file": .string(output)]) } else { print("Wrote \(output).") }
                return 0
            }
        }
    }

    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove every guest and check-in from the station once the event is over.",
            discussion: """
                With a hub: what the hub has, as at sign-out (changes it has not received stay). \
                Without one (the embedded default), only after `kiosk export attendance FILE.csv` \
                was run since the last check-in: nothing else holds the attendance. Exit status 1 \
                when refused.
                """)
        @Flag(help: "Confirm: the guest data cannot be brought back.") var yes = false
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                guard yes else {
                    throw CommandFailure("Purging removes every guest from this station for good: run again with --yes.", exitCode: ExitStatus.badInput)
                }
                let database = try options.openDatabase()
                switch try await database.purgeOnOperatorsWord() {
                case .success(let guests):
                    if options.json { CommandOutput.printJSON(["purged": .bool(true), "guests": .int(guests)]) } else {
                        print("Removed \(guests) guests and their check-ins from this station.")
                    }
                    return 0
                case .failure(let refusal):
                    if options.json { CommandOutput.printJSON(["purged": .bool(false), "reason": .string(refusal.description)]) }
                    CommandOutput.printError("kiosk: \(refusal.description)")
                    return 1
                }
            }
        }
    }
}
