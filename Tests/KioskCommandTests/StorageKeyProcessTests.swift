import Foundation
import KioskTestSupport
import Testing

/// Where the storage key comes from, through the real `kiosk` commands: a systemd credential
/// (simulated with `$CREDENTIALS_DIRECTORY`, and sealed for real with `systemd-creds`), key
/// files, support's `sudo`, a rekey killed half-way, the recovery key.
@Suite("storage key through the kiosk commands", .serialized, .tags(.endToEnd), .endToEnd, .blocking)
struct StorageKeyProcessTests {
    let kiosk = BuiltProducts.executable("kiosk")
    static let roster = """
        name,email,company,code,access_type
        José Müller,jose@example.com,ACME,ABC1,VIP
        王芳,wang@example.cn,北京公司,ABC2,General
        """

    func store(_ directory: TemporaryDirectory, environment: [String: String] = [:], key: String? = nil) throws -> String {
        let csv = directory.appending("roster.csv")
        try Self.roster.write(to: csv, atomically: true, encoding: .utf8)
        let data = directory.appending("data").path
        let result = try run(kiosk, ["import", csv.path, "--data-dir", data] + (key.map { ["--storage-key-file", $0] } ?? []), environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return data
    }

    @Test func aStationUnderSystemdUsesItsCredentialAndWithoutItSaysWhatIsMissingWithExit75() throws {
        let directory = TemporaryDirectory("creds")
        defer { directory.remove() }
        let credentials = directory.appending("credentials")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: credentials.appendingPathComponent("kiosk-storage-key").path,
                                       contents: Data((Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n").utf8),
                                       attributes: [.posixPermissions: 0o400])
        let home = directory.appending("config").path
        let environment = ["CREDENTIALS_DIRECTORY": credentials.path, "XDG_CONFIG_HOME": home]
        let data = try store(directory, environment: environment)
        let found = try run(kiosk, ["search", "wang", "--data-dir", data, "--json"], environment: environment)
        #expect(found.status == 0 && found.stdout.contains("王芳"), "\(found.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/checkin-kiosk/keys"), "no key file is made beside a credential")

        // The unit started without its credential: the default key file does not exist for this store.
        let missing = try run(kiosk, ["status", "--data-dir", data], environment: ["XDG_CONFIG_HOME": home])
        #expect(missing.status == 75)
        #expect(missing.stderr.contains("is missing, so the station's data cannot be opened. Nothing was changed."), "\(missing.stderr)")
        // systemd gave the fallback value: the credential could not be loaded or decrypted.
        try Data("missing\n".utf8).write(to: credentials.appendingPathComponent("kiosk-storage-key"))
        let garbled = try run(kiosk, ["status", "--data-dir", data], environment: environment)
        #expect(garbled.status == 75)
        #expect(garbled.stderr.contains("could not be opened: systemd could not load or decrypt it"), "\(garbled.stderr)")
        #expect(garbled.stderr.contains("sudo kiosk storage recover"))
    }

    @Test func headlessKioskRunWithoutItsKeyReportsItAndExits75() throws {
        let directory = TemporaryDirectory("run-nokey")
        defer { directory.remove() }
        let key = directory.appending("station.key").path
        let data = try store(directory, key: key)
        try FileManager.default.removeItem(atPath: key)
        let result = try run(kiosk, ["run", "--headless", "--data-dir", data, "--storage-key-file", key], timeout: 60)
        #expect(result.status == 75)
        #expect(result.stdout.contains("\"event\":\"storage_key_unavailable\""), "\(result.stdout)")
    }

    @Test func supportRunsCommandsAsRootWithTheSealedCredentialAndTheFilesStayTheStations() throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-creds") else { return }
        let directory = TemporaryDirectory("sealed-cred")
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        // The store is made with a key, which is then sealed as install-station.sh does.
        let plain = directory.appending("plain.key").path
        let data = try store(directory, key: plain)
        let sealed = directory.appending("kiosk-storage-key.cred").path
        let encrypt = try run(URL(fileURLWithPath: "/usr/bin/systemd-creds"), ["encrypt", "--name=kiosk-storage-key", "--with-key=host", plain, sealed])
        #expect(encrypt.status == 0, "\(encrypt.stderr)")
        try FileManager.default.removeItem(atPath: plain)
        // The station's files belong to its service user.
        #expect(try run(URL(fileURLWithPath: "/bin/chown"), ["-R", "nobody:nogroup", data]).status == 0)

        let environment = ["KIOSK_SEALED_CREDENTIAL": sealed]
        let status = try run(kiosk, ["search", "jose", "--data-dir", data, "--json"], environment: environment)
        #expect(status.status == 0 && status.stdout.contains("José Müller"), "\(status.stderr)")
        let owners = try FileManager.default.contentsOfDirectory(atPath: data).map {
            try FileManager.default.attributesOfItem(atPath: data + "/" + $0)[.ownerAccountName] as? String
        }
        #expect(owners.allSatisfy { $0 == "nobody" }, "\(owners)")

        // Run as another user, the command says to use sudo.
        let other = try run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", kiosk.path, "status", "--data-dir", data], environment: environment)
        #expect(other.status == 75)
        #expect(other.stderr.contains("which only root can open: run the command with sudo"), "\(other.stderr)")

        // A rekey as root seals a new credential; the station opens with it.
        let before = try Data(contentsOf: URL(fileURLWithPath: sealed))
        let rekey = try run(kiosk, ["storage", "rekey", "--data-dir", data], environment: environment)
        #expect(rekey.status == 0, "\(rekey.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sealed)) != before)
        #expect(try run(kiosk, ["search", "wang", "--data-dir", data], environment: environment).status == 0)
        let after = try FileManager.default.contentsOfDirectory(atPath: data).map {
            try FileManager.default.attributesOfItem(atPath: data + "/" + $0)[.ownerAccountName] as? String
        }
        #expect(after.allSatisfy { $0 == "nobody" }, "root's rekey gave the files back: \(after)")
    }

    @Test func aRekeyKilledAtAnyPointLeavesAStoreThatTheKeyInPlaceOpens() throws {
        let directory = TemporaryDirectory("rekey-kill")
        defer { directory.remove() }
        let key = directory.appending("station.key").path
        let data = try store(directory, key: key)
        // Each step waits 300 ms: killed at 150, 450 and 750 ms, the process dies before, between and after the steps.
        for delay in [0.15, 0.45, 0.75, 0.15, 0.45] {
            let process = Process()
            process.executableURL = kiosk
            process.arguments = ["storage", "rekey", "--data-dir", data, "--storage-key-file", key]
            process.environment = ProcessInfo.processInfo.environment.merging(["KIOSK_REKEY_STEP_DELAY_MS": "300"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let found = try run(kiosk, ["search", "müller", "--data-dir", data, "--storage-key-file", key, "--json"])
            #expect(found.status == 0 && found.stdout.contains("José Müller"), "killed after \(delay) s: \(found.stderr)")
        }
        let finished = try run(kiosk, ["storage", "rekey", "--data-dir", data, "--storage-key-file", key])
        #expect(finished.status == 0)
        let show = try run(kiosk, ["storage", "show", "--data-dir", data, "--storage-key-file", key, "--json"])
        #expect(show.stdout.contains("\"storage_keys\":1"), "a finished rekey leaves one storage key: \(show.stdout)")
    }

    @Test func theRecoveryKeyOnPaperOpensAStoreWhoseKeyFileIsGone() throws {
        let directory = TemporaryDirectory("recovery")
        defer { directory.remove() }
        let key = directory.appending("station.key").path
        let data = try store(directory, key: key)
        let made = try run(kiosk, ["storage", "recovery-key", "--data-dir", data, "--storage-key-file", key, "--json"])
        #expect(made.status == 0)
        let recovery = try #require(try made.json()["recovery_key"] as? String)
        #expect(recovery.count == 79, "64 hex digits in 16 groups: \(recovery)")
        try FileManager.default.removeItem(atPath: key)
        #expect(try run(kiosk, ["status", "--data-dir", data, "--storage-key-file", key]).status == 75)

        let wrong = try run(kiosk, ["storage", "recover", "--data-dir", data, "--storage-key-file", key], stdin: "not a key\n")
        #expect(wrong.status == 65)
        let recovered = try run(kiosk, ["storage", "recover", "--data-dir", data, "--storage-key-file", key], stdin: recovery + "\n")
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let found = try run(kiosk, ["search", "北京", "--data-dir", data, "--storage-key-file", key, "--json"])
        #expect(found.status == 0 && found.stdout.contains("王芳"), "\(found.stderr)")
    }
}
