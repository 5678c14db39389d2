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

    /// Seals `key` into `url` with the TPM2 when the box has one, else the host key
    /// (`--with-key=auto`), as `install-station.sh` does at set-up.
    static func encrypt(_ key: StorageKey, to url: URL) throws(StorageKeyError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-creds")
        process.arguments = ["encrypt", "--name=\(StorageKeySource.credentialName)", "--with-key=auto", "-", url.path]
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
    }
}
