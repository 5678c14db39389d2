import ArgumentParser
import Foundation
import KioskStore

extension StorageCommand {
    /// `kiosk storage move-key`: the storage key onto a USB stick needed at every start, or back.
    struct MoveKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-key",
            abstract: "Move the storage key onto a USB stick that must be plugged in at start, or back onto this box.",
            discussion: """
                --to-removable FOLDER writes a new storage key to the stick mounted at FOLDER (refused on the \
                data's own disk) and removes the old one from this box: the data then opens only while the \
                stick is there. kiosk run waits for it, saying so on the screen, and starts by itself once it \
                is plugged in; other commands say to plug it in. --to-box puts a new key back where this box \
                keeps it (the sealed credential, or the key file). Both are safe to interrupt, and the recovery \
                key keeps working: if the stick is lost, kiosk storage recover.
                """)
        @Option(name: .customLong("to-removable"), help: "The folder the USB stick is mounted at, e.g. /media/kiosk-key.")
        var toRemovable: String?
        @Flag(name: .customLong("to-box"), help: "Put the storage key back on this box.")
        var toBox = false
        @OptionGroup var options: StationOptions

        func validate() throws {
            guard (toRemovable != nil) != toBox else { throw ValidationError("Give either --to-removable FOLDER or --to-box.") }
        }

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                // Resolved as root: the sealed credential on a systemd station.
                let box = options.boxKeySource
                // Root can become root again to seal a new credential, or remove the old one.
                let database = try options.openDatabase(keepRoot: true)
                if let toRemovable {
                    let moved: (keyFile: URL, removed: String?)
                    do throws(StoreError) { moved = try database.moveKeyToRemovable(URL(fileURLWithPath: toRemovable)) } catch {
                        guard case .storageKey(let problem) = error else { throw error }
                        throw CommandFailure(problem.description, exitCode: ExitStatus.badInput)
                    }
                    let protection = StorageKeySource.removable(moved.keyFile).protection(store: database.storeID, dataDirectory: database.dataDirectory)
                    if options.json {
                        CommandOutput.printJSON(["store": .string(database.storeID), "key": .string(moved.keyFile.path),
                                                 "removed": .optional(moved.removed), "protection": .string(protection.rawValue)])
                    } else {
                        print("The storage key is now \(moved.keyFile.path), on the USB stick: \(protection.words).")
                        if let removed = moved.removed { print("Removed the old key \(removed) from this box: it opens nothing any more.") }
                        print("The station opens its data only while the stick is plugged in: it waits for it at start, saying so.")
                        print("Keep the stick away from the box when the box is left alone, and the recovery key on paper:")
                        print("it opens the data if the stick is lost (kiosk storage recover).")
                    }
                } else {
                    guard let location = try database.moveKeyToBox(box) else {
                        print("The storage key is not on a removable medium: it stays in \(database.keySource.describe(store: database.storeID)).")
                        return 0
                    }
                    if options.json {
                        CommandOutput.printJSON(["store": .string(database.storeID), "key": .string(location)])
                    } else {
                        print("The storage key is back on this box, in \(location); the stick is no longer needed.")
                        print("The key file left on the stick opens nothing: delete it.")
                    }
                }
                return 0
            }
        }
    }
}
