import Foundation
import KioskTestSupport
import Testing

/// How well the storage key is kept from someone holding the station's disk, as the real `kiosk`
/// commands report it: a key on the data's own disk (the default key file, systemd's host key
/// on a box without TPM2) is said plainly, with the stronger choices.
@Suite("storage key protection through the kiosk commands", .serialized, .tags(.endToEnd), .endToEnd, .blocking)
struct StorageKeyProtectionProcessTests {
    let kiosk = BuiltProducts.executable("kiosk")

    func store(_ directory: TemporaryDirectory, environment: [String: String] = [:], key: String? = nil) throws -> String {
        let data = directory.appending("data").path
        let result = try run(kiosk, ["import", BuiltProducts.packageRoot.appendingPathComponent("Kiosk/demo-roster.csv").path, "--data-dir", data]
                                 + (key.map { ["--storage-key-file", $0] } ?? []), environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return data
    }

    func storageKey(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try result.json()["storage_key"] as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    @Test func theDefaultKeyFileOnTheDataDisksIsReportedAsOpeningTheDataToWhoeverTakesTheDisk() throws {
        let directory = TemporaryDirectory("protection-keyfile")
        defer { directory.remove() }
        let environment = ["XDG_CONFIG_HOME": directory.appending("config").path]
        let data = try store(directory, environment: environment)

        let status = try run(kiosk, ["status", "--data-dir", data, "--json"], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        let key = try storageKey(status)
        #expect(key["protection"] as? String == "key_file_same_disk")
        #expect(key["same_disk"] as? Bool == true)
        #expect((key["message"] as? String)?.contains("whoever takes the disk or the box can open the guest data") == true, "\(key)")
        #expect((key["fix"] as? String)?.contains("kiosk storage move-key --to-removable") == true, "\(key)")

        let text = try run(kiosk, ["status", "--data-dir", data], environment: environment)
        let line = text.stdout.split(separator: "\n").first { $0.hasPrefix("Key:") }.map(String.init) ?? ""
        #expect(line.contains("on the same disk as the data"), "\(text.stdout)")
        #expect(text.stdout.contains("kiosk storage move-key --to-removable"), "\(text.stdout)")

        let show = try run(kiosk, ["storage", "show", "--data-dir", data, "--json"], environment: environment)
        #expect(try show.json()["protection"] as? String == "key_file_same_disk", "\(show.stdout)")
    }

    /// `kiosk storage seal`, as the package's postinst and install-station.sh run it, on this box
    /// (no TPM2 here: `systemd-creds has-tpm2` says so): the key is sealed with systemd's host key and
    /// the output says plainly that the disk opens the data; `kiosk status` as root (which reads the
    /// credential's header) and as the service's user (which cannot) say the same.
    @Test func aKeySealedWithoutTPM2IsSaidPlainlyToBeOnTheSameDisk() throws {
        let creds = URL(fileURLWithPath: "/usr/bin/systemd-creds")
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: creds.path) else { return }
        let tpm2 = try run(creds, ["has-tpm2", "--quiet"]).status == 0
        let expected = tpm2 ? "tpm2" : "host_key"
        let directory = TemporaryDirectory("protection-sealed")
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        let sealed = directory.appending("credstore/kiosk-storage-key").path
        let environment = ["KIOSK_SEALED_CREDENTIAL": sealed]

        let seal = try run(kiosk, ["storage", "seal", "--data-dir", directory.appending("data").path], environment: environment)
        #expect(seal.status == 0, "\(seal.stderr)")
        #expect(seal.stdout.contains("Sealed a new storage key into \(sealed)."), "\(seal.stdout)")
        if !tpm2 {
            #expect(seal.stdout.contains("WARNING: the guest data is protected by only a key on the same disk as the data (systemd's host key: this box has no TPM2)"),
                    "\(seal.stdout)")
            #expect(seal.stdout.contains("sudo kiosk storage move-key --to-removable"), "\(seal.stdout)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: sealed)[.posixPermissions] as? Int == 0o600)
        let again = try run(kiosk, ["storage", "seal", "--json"], environment: environment)
        #expect(try again.json()["sealed"] as? Bool == false, "an existing key is kept: \(again.stdout)")
        #expect(try again.json()["protection"] as? String == expected)

        // A station made with that key; root's status reads the credential's header.
        let data = try store(directory, environment: environment)
        let status = try run(kiosk, ["status", "--data-dir", data, "--json"], environment: environment)
        #expect(try storageKey(status)["protection"] as? String == expected, "\(status.stdout)\(status.stderr)")

        // The service: its own user, the credential decrypted by systemd into $CREDENTIALS_DIRECTORY,
        // the sealed file out of its reach.
        let credentials = directory.appending("credentials")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        #expect(try run(creds, ["decrypt", "--name=kiosk-storage-key", sealed, credentials.appendingPathComponent("kiosk-storage-key").path]).status == 0)
        #expect(try run(URL(fileURLWithPath: "/bin/chown"), ["-R", "nobody:nogroup", data, credentials.path]).status == 0)
        let service = try run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                              ["--reuid=nobody", "--regid=nogroup", "--clear-groups", kiosk.path, "status", "--data-dir", data, "--json"],
                              environment: environment.merging(["CREDENTIALS_DIRECTORY": credentials.path, "HOME": directory.path]) { $1 })
        #expect(service.status == 0, "\(service.stderr)")
        #expect(try storageKey(service)["protection"] as? String == expected, "\(service.stdout)")
    }

    /// A folder on another file system than the data stands in for the mounted USB stick.
    static func medium() throws -> URL {
        let folder = URL(fileURLWithPath: "/dev/shm/kiosk-medium-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aKeyMovedToAUSBStickIsNeededToOpenTheDataAndTheRecoveryKeyStillOpensItWithoutTheStick() throws {
        let directory = TemporaryDirectory("protection-removable")
        defer { directory.remove() }
        let stick = try Self.medium()
        defer { try? FileManager.default.removeItem(at: stick) }
        let environment = ["XDG_CONFIG_HOME": directory.appending("config").path]
        let data = try store(directory, environment: environment)
        let recovery = try #require(try run(kiosk, ["storage", "recovery-key", "--data-dir", data, "--json"], environment: environment)
            .json()["recovery_key"] as? String)
        let keys = directory.appending("config/checkin-kiosk/keys").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys).count == 1)

        // A folder on the data's own disk is refused, and nothing changes.
        let sameDisk = directory.appending("not-a-stick")
        try FileManager.default.createDirectory(at: sameDisk, withIntermediateDirectories: true)
        let refused = try run(kiosk, ["storage", "move-key", "--to-removable", sameDisk.path, "--data-dir", data], environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("is on the same disk as the station's data, so a key there protects nothing. Nothing was changed."), "\(refused.stderr)")
        #expect(try run(kiosk, ["search", "demo", "--data-dir", data], environment: environment).status == 0)

        let moved = try run(kiosk, ["storage", "move-key", "--to-removable", stick.path, "--data-dir", data], environment: environment)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("Removed the old key"), "\(moved.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys).isEmpty, "the key on the box is gone")
        let onStick = try FileManager.default.contentsOfDirectory(atPath: stick.path)
        #expect(onStick.count == 1 && onStick[0].hasPrefix("checkin-kiosk-") && onStick[0].hasSuffix(".key"), "\(onStick)")
        let status = try run(kiosk, ["status", "--data-dir", data, "--json"], environment: environment)
        #expect(try storageKey(status)["protection"] as? String == "separate_medium", "\(status.stdout)")
        #expect(try storageKey(status)["same_disk"] as? Bool == false)

        // The stick pulled out: nothing opens the data, and the message says what to do.
        let away = URL(fileURLWithPath: stick.path + "-away")
        try FileManager.default.moveItem(at: stick, to: away)
        defer { try? FileManager.default.removeItem(at: away) }
        let without = try run(kiosk, ["status", "--data-dir", data], environment: environment)
        #expect(without.status == 75)
        #expect(without.stderr.contains("is on a removable medium"), "\(without.stderr)")
        #expect(without.stderr.contains("Plug in the USB stick holding it"), "\(without.stderr)")

        // Lost for good: the recovery key opens the data and puts a new key on the box.
        let recovered = try run(kiosk, ["storage", "recover", "--data-dir", data], stdin: recovery + "\n", environment: environment)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let found = try run(kiosk, ["search", "demo", "--data-dir", data, "--json"], environment: environment)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(try storageKey(try run(kiosk, ["status", "--data-dir", data, "--json"], environment: environment))["protection"] as? String
                == "key_file_same_disk")

        // To the stick and back: the key on the box again, the stick no longer needed.
        try FileManager.default.moveItem(at: away, to: stick)
        #expect(try run(kiosk, ["storage", "move-key", "--to-removable", stick.path, "--data-dir", data], environment: environment).status == 0)
        let back = try run(kiosk, ["storage", "move-key", "--to-box", "--data-dir", data], environment: environment)
        #expect(back.status == 0, "\(back.stderr)")
        try FileManager.default.removeItem(at: stick)
        #expect(try run(kiosk, ["search", "demo", "--data-dir", data], environment: environment).status == 0)
    }
}
