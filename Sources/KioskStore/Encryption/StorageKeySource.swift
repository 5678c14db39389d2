import Foundation

/// Where a station's storage key comes from, in this order:
/// 0. a key file on a removable medium, when the store's key was moved there (`kiosk storage
///    move-key --to-removable`, recorded in the data directory: ``RemovableKeyPlace``);
/// 1. the systemd credential `kiosk-storage-key` the service manager decrypted for this process
///    (`$CREDENTIALS_DIRECTORY`), on a station installed as a service;
/// 2. the same credential sealed on disk (`/etc/credstore.encrypted/kiosk-storage-key`), which
///    `systemd-creds decrypt` opens for root: support's `sudo kiosk status` on such a station;
/// 3. a key file named by configuration (`storage_key_file`, `--storage-key-file`,
///    `$KIOSK_STORAGE_KEY_FILE`), outside the data directory, 0600;
/// 4. for the embedded default, a key file per store under the user's configuration directory
///    (`$XDG_CONFIG_HOME/checkin-kiosk/keys/STORE.key`), created with the store.
public enum StorageKeySource: Sendable {
    case credential(URL)
    case sealedCredential(URL)
    case keyFile(URL)
    case userDefault(directory: URL)
    /// A key file on a removable medium that must be there when the store is opened.
    case removable(URL)
    /// The sealed credential, already opened by root (support's `sudo kiosk …`, which then acts
    /// as the station's user and could not open it any more).
    case unsealedCredential(StorageKey, credential: URL)
    /// A key given in process (tests; `kiosk storage recover` with the recovery key).
    case given(StorageKey, label: String)

    public static let credentialName = "kiosk-storage-key"
    public static let sealedCredentialPath = "/etc/credstore.encrypted/kiosk-storage-key"

    /// - Parameter dataDirectory: the store's data directory, whose record of a removable
    ///   medium wins over everything else; nil for the box's own place (what `recover` and
    ///   `move-key --to-box` put a new key into).
    public static func resolve(keyFile: String? = nil, dataDirectory: URL? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> StorageKeySource {
        if let dataDirectory, let onMedium = RemovableKeyPlace.read(in: dataDirectory) { return .removable(onMedium) }
        if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(credentialName)
            if FileManager.default.fileExists(atPath: url.path) { return .credential(url) }
        }
        let sealed = sealedCredentialURL(environment: environment)
        if FileManager.default.fileExists(atPath: sealed.path) { return .sealedCredential(sealed) }
        if let path = keyFile ?? environment["KIOSK_STORAGE_KEY_FILE"], !path.isEmpty { return .keyFile(URL(fileURLWithPath: path)) }
        return .userDefault(directory: defaultKeyDirectory(environment: environment))
    }

    /// Where the station's sealed credential is (`$KIOSK_SEALED_CREDENTIAL` in tests).
    public static func sealedCredentialURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: environment["KIOSK_SEALED_CREDENTIAL"].flatMap { $0.isEmpty ? nil : $0 } ?? sealedCredentialPath)
    }

    /// `$XDG_CONFIG_HOME/checkin-kiosk/keys`, default `~/.config/checkin-kiosk/keys`.
    public static func defaultKeyDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("checkin-kiosk/keys")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config/checkin-kiosk/keys")
    }

    /// Says where the key is, for messages and `kiosk storage` (never the key itself).
    public func describe(store: String) -> String {
        switch self {
        case .credential(let url): "the systemd credential \(url.path)"
        case .sealedCredential(let url), .unsealedCredential(_, let url): "the systemd credential \(url.path)"
        case .keyFile(let url): "the key file \(url.path)"
        case .userDefault(let directory): "the key file \(Self.userKeyFile(directory, store: store).path)"
        case .removable(let url): "the key file \(url.path) on a removable medium"
        case .given(_, let label): label
        }
    }

    /// The key file this source reads and (for key files) writes, if it is a file the station owns.
    public func keyFileURL(store: String) -> URL? {
        switch self {
        case .keyFile(let url), .removable(let url): url
        case .userDefault(let directory): Self.userKeyFile(directory, store: store)
        case .credential, .sealedCredential, .unsealedCredential, .given: nil
        }
    }

    static func userKeyFile(_ directory: URL, store: String) -> URL { directory.appendingPathComponent("\(store).key") }

    /// Reads the key; creates a key file when `creating` (a new store, or one being encrypted
    /// for the first time) and the source is a key file that does not exist yet.
    func load(store: String, creating: Bool, dataDirectory: URL) throws(StorageKeyError) -> StorageKey {
        switch self {
        case .given(let key, _), .unsealedCredential(let key, _):
            return key
        case .credential(let url):
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw .credentialUnreadable(path: url.path, reason: "it cannot be read")
            }
            guard let key = StorageKey(fileContents: data) else {
                throw .credentialUnreadable(path: url.path, reason: "systemd could not load or decrypt it")
            }
            return key
        case .sealedCredential(let url):
            guard geteuid() == 0 else { throw .needsRoot(path: url.path) }
            return try SystemdCredential.decrypt(url)
        case .keyFile, .userDefault:
            let url = keyFileURL(store: store)!
            return try Self.loadKeyFile(url, creating: creating, dataDirectory: dataDirectory)
        case .removable(let url):
            // Never made here: a missing key means the medium is not plugged in (or not mounted yet).
            guard FileManager.default.fileExists(atPath: url.path) else { throw .removableKeyAbsent(path: url.path) }
            return try Self.loadKeyFile(url, creating: false, dataDirectory: dataDirectory)
        }
    }

    static func loadKeyFile(_ url: URL, creating: Bool, dataDirectory: URL) throws(StorageKeyError) -> StorageKey {
        let data = dataDirectory.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let parent = url.deletingLastPathComponent()
        let resolvedParent = (FileManager.default.fileExists(atPath: parent.path) ? parent.resolvingSymlinksInPath() : parent).standardizedFileURL.path + "/"
        if resolvedParent.hasPrefix(data) { throw .keyFileInsideDataDirectory(path: url.path) }
        var info = stat()
        if stat(url.path, &info) == 0 {
            if info.st_mode & 0o077 != 0 { throw .keyFileOpenToOthers(path: url.path) }
            guard let contents = FileManager.default.contents(atPath: url.path) else {
                throw .keyFileUnreadable(path: url.path, reason: "permission denied")
            }
            guard let key = StorageKey(fileContents: contents) else {
                throw .keyFileUnreadable(path: url.path, reason: "it does not hold a storage key")
            }
            return key
        }
        guard creating else { throw .keyFileMissing(path: url.path) }
        let key = StorageKey.random()
        try write(key, to: url)
        return key
    }

    /// Writes a new key file, 0600, never over an existing one, flushed to disk before the
    /// store starts using it.
    static func write(_ key: StorageKey, to url: URL, replacing: Bool = false) throws(StorageKeyError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .keyFileUnreadable(path: url.path, reason: "its folder cannot be created: \((error as NSError).localizedDescription)")
        }
        let flags = O_WRONLY | O_CREAT | (replacing ? O_TRUNC : O_EXCL)
        let fd = open(url.path, flags, 0o600)
        guard fd >= 0 else { throw .keyFileUnreadable(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let bytes = [UInt8](key.fileContents)
        guard bytes.withUnsafeBytes({ Foundation.write(fd, $0.baseAddress, $0.count) }) == bytes.count, fsync(fd) == 0 else {
            throw .keyFileUnreadable(path: url.path, reason: "it could not be written: \(String(cString: strerror(errno)))")
        }
        fchmod(fd, 0o600)
    }
}

extension StorageKeySource {
    /// Whether a new key can be put where this source reads it (`kiosk storage rekey`,
    /// `recover`): key files, and the sealed credential for root.
    public var canHoldNewKey: Bool {
        switch self {
        case .keyFile, .userDefault, .sealedCredential, .removable: true
        case .credential, .unsealedCredential, .given: false
        }
    }

    /// Puts `key` where this source reads it, replacing the key there in one step (written
    /// beside it, flushed, renamed over it), so a process killed meanwhile leaves either key.
    func persist(_ key: StorageKey, store: String) throws(StorageKeyError) {
        switch self {
        case .keyFile, .userDefault, .removable:
            let url = keyFileURL(store: store)!
            let temporary = url.appendingPathExtension("new")
            try? FileManager.default.removeItem(at: temporary)
            try Self.write(key, to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw .keyFileUnreadable(path: url.path, reason: "the new key could not replace it: \(String(cString: strerror(errno)))")
            }
            Self.syncFolder(of: url)
        case .sealedCredential(let url):
            guard getuid() == 0 else { throw .needsRoot(path: url.path) }
            try DataDirectory.asRoot { () throws(StorageKeyError) in
                let temporary = url.appendingPathExtension("new")
                try SystemdCredential.encrypt(key, to: temporary)
                guard rename(temporary.path, url.path) == 0 else {
                    throw .credentialUnreadable(path: url.path, reason: "the new credential could not replace it: \(String(cString: strerror(errno)))")
                }
                Self.syncFolder(of: url)
            }
        case .credential(let url), .unsealedCredential(_, let url):
            throw .credentialUnreadable(path: url.path, reason: "a running service cannot replace its own credential; run sudo kiosk storage … outside the service")
        case .given(_, let label):
            throw .keyFileUnreadable(path: label, reason: "a key given on the command line cannot be replaced")
        }
    }

    static func syncFolder(of url: URL) {
        let fd = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

extension StorageKeySource {
    /// The key of a throwaway store (benchmarks): a key file `NAME.key` beside its data
    /// directory `NAME`, so it goes with the temporary folder holding both instead of staying
    /// among the user's keys.
    public static func besideThrowawayStore(_ dataDirectory: URL) -> StorageKeySource {
        .keyFile(dataDirectory.deletingLastPathComponent().appendingPathComponent(dataDirectory.lastPathComponent + ".key"))
    }
}
