import ArgumentParser
import Foundation
import KioskStore

extension StorageCommand {
    /// `kiosk storage seal`: the installers' step that makes the sealed storage key, and says
    /// plainly how well it is protected.
    struct Seal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the station's storage key, sealed with systemd-creds, and say how well it is protected (the installers run this).",
            discussion: """
                Sealed to the TPM2 when systemd-creds has-tpm2 finds one; else to systemd's host key, which is \
                on the same disk as the data: then it says so, with the stronger choices. A key already sealed \
                is kept (a new one would not open the data) and only assessed. Needs root.
                """)
        @OptionGroup var options: StationOptions

        func run() async throws {
            try await CommandOutput.run(json: options.json) {
                if case .removable(let onMedium) = options.keySource {
                    if options.json {
                        CommandOutput.printJSON(["credential": .null, "key": .string(onMedium.path), "protection": .string(StorageKeyProtection.separateMedium.rawValue)])
                    } else {
                        print("The storage key is on a removable medium (\(onMedium.path)): nothing to seal.")
                    }
                    return 0
                }
                let credential = StorageKeySource.sealedCredentialURL()
                let made: Bool
                let protection: StorageKeyProtection
                if let existing = SealedStorageKey.protection(at: credential) {
                    (made, protection) = (false, existing)
                } else {
                    do throws(StorageKeyError) { protection = try SealedStorageKey.sealNew(at: credential) } catch { throw StoreError.storageKey(error) }
                    made = true
                }
                if options.json {
                    CommandOutput.printJSON(["credential": .string(credential.path), "sealed": .bool(made), "protection": .string(protection.rawValue),
                                             "same_disk": .bool(protection.sameDiskAsData), "message": .string(protection.words),
                                             "fix": .optional(protection.advice)])
                } else {
                    print(made ? "Sealed a new storage key into \(credential.path)." : "Keeping the storage key already sealed in \(credential.path).")
                    print((protection.sameDiskAsData ? "WARNING: the guest data is protected by " : "The guest data is protected by ") + protection.words + ".")
                    if let advice = protection.advice { print(advice) }
                }
                return 0
            }
        }
    }
}
