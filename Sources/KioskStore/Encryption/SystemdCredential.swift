import Foundation

/// Opens the sealed storage-key credential with `systemd-creds decrypt` (root only: the host
/// key and the TPM are root's), for support commands run with sudo on a systemd station.
enum SystemdCredential {
    static func decrypt(_ url: URL) throws(StorageKeyError) -> StorageKey {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-creds")
        process.arguments = ["decrypt", "--name=\(StorageKeySource.credentialName)", url.path, "-"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw .credentialUnreadable(path: url.path, reason: "systemd-creds cannot be run: \((error as NSError).localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .credentialUnreadable(path: url.path, reason: message.isEmpty ? "systemd-creds failed" : message)
        }
        guard let key = StorageKey(fileContents: data) else {
            throw .credentialUnreadable(path: url.path, reason: "it does not hold a storage key")
        }
        return key
    }

    /// Seals `key` into `url` with the TPM2 (and the host key) when `systemd-creds has-tpm2`
    /// finds one, else with the host key alone, which lies on the same disk: chosen here rather
    /// than by `--with-key=auto`, so what ``CredentialSealing`` reports is what was done.
    /// - Returns: the protection the new credential has.
    @discardableResult
    static func encrypt(_ key: StorageKey, to url: URL) throws(StorageKeyError) -> StorageKeyProtection {
        let tpm2 = hasTPM2()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-creds")
        process.arguments = ["encrypt", "--name=\(StorageKeySource.credentialName)", tpm2 ? "--with-key=host+tpm2" : "--with-key=host", "-", url.path]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        do { try process.run() } catch {
            throw .credentialUnreadable(path: url.path, reason: "systemd-creds cannot be run: \((error as NSError).localizedDescription)")
        }
        input.fileHandleForWriting.write(key.fileContents)
        try? input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .credentialUnreadable(path: url.path, reason: "systemd-creds could not seal the new key: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        chmod(url.path, 0o600)
        return tpm2 ? .tpm2 : .hostKey
    }

    /// Whether `systemd-creds has-tpm2` finds a usable TPM2 (firmware, driver and systemd's
    /// support all there; exit status 0). No systemd-creds: no.
    static func hasTPM2() -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-creds")
        process.arguments = ["has-tpm2", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
