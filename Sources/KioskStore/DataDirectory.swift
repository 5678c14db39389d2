import Foundation

/// Where the station keeps its database, backups, badges and session.
public enum DataDirectory {
    /// The system station's directory, made by the checkin-kiosk package and Kiosk/install-station.sh.
    public static let systemURL = URL(fileURLWithPath: "/var/lib/checkin-kiosk")

    /// This process's default, decided once: root acting as the station's user later
    /// (``actAsOwner(of:reversibly:)``, which changes the user and `HOME`) keeps the directory it
    /// started on.
    public static let processDefault = defaultURL()

    /// `$KIOSK_DATA_DIR`; else `/var/lib/checkin-kiosk` when run by systemd as a system service,
    /// or by root on a box where it exists (support's `sudo kiosk status` on an installed station);
    /// else `$XDG_DATA_HOME/checkin-kiosk` (default `~/.local/share/checkin-kiosk`).
    public static func defaultURL(
        environment: [String: String] = ProcessInfo.processInfo.environment, userID: uid_t = getuid(),
        systemDirectoryExists: () -> Bool = { FileManager.default.fileExists(atPath: systemURL.path) }
    ) -> URL {
        if let explicit = environment["KIOSK_DATA_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if environment["XDG_DATA_HOME"] == nil {
            if environment["INVOCATION_ID"] != nil, userID < 1000 { return systemURL }
            if userID == 0, systemDirectoryExists() { return systemURL }
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("checkin-kiosk")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/checkin-kiosk")
    }

    /// Refuses a directory owned by another user than the one running this process: files this
    /// process would create there (the database's journal, the session) would belong to it, and
    /// the station's service, running as the owner, could no longer open them.
    public static func requireOwnership(of url: URL) throws(StoreError) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        let me = geteuid()
        guard info.st_uid != me else { return }
        let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
        throw .notOwner(path: url.path, owner: owner)
    }

    /// Guest data is for the station's user alone, whatever the umask: the directory 0700, every
    /// file and folder already in it 0600 / 0700 (an older version, or a umask of 022, left them
    /// readable by everyone). SQLite gives its journal files the database file's mode.
    ///
    /// Opening a store is on the start-up path and a data directory holds thousands of badge PDFs:
    /// the walk runs only when the directory itself is open to others (the first start after an
    /// upgrade). Once it is 0700 nobody else reaches what is inside, and this process creates
    /// everything 0600 (umask 077).
    public static func restrictAccess(to url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey])
        while let item = walker?.nextObject() as? URL {
            let values = try? item.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true { continue }
            chmod(item.path, values?.isDirectory == true ? 0o700 : 0o600)
        }
        // Last: an interrupted walk is done again at the next open.
        chmod(url.path, 0o700)
    }
}

extension DataDirectory {
    /// Root running a command on a station's data directory (`sudo kiosk status` on a systemd
    /// station) works as the directory's owner from here on: files it creates there (the
    /// database's journal, the session) stay the station's, and the service can still open
    /// them. `HOME` becomes the owner's, so the owner's default key file is the one found.
    /// Does nothing for other users, or when root owns the directory.
    ///
    /// `reversibly` changes only the effective ids (the saved ones stay root's), so that
    /// ``asRoot(_:)`` can seal a new credential later in the same command.
    public static func actAsOwner(of url: URL, reversibly: Bool = false) throws(StoreError) {
        guard geteuid() == 0 else { return }
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_uid != 0 else { return }
        if let entry = getpwuid(info.st_uid) {
            initgroups(entry.pointee.pw_name, entry.pointee.pw_gid)
            setenv("HOME", entry.pointee.pw_dir, 1)
            unsetenv("XDG_CONFIG_HOME")
        } else {
            setgroups(0, nil)
        }
        let changed = reversibly ? setegid(info.st_gid) == 0 && seteuid(info.st_uid) == 0 : setgid(info.st_gid) == 0 && setuid(info.st_uid) == 0
        guard changed else {
            throw .dataDirectoryUnusable(path: url.path, reason: "root could not act as its owner (uid \(info.st_uid))")
        }
    }
}

extension DataDirectory {
    /// Runs `body` with root's effective ids when the process is root acting as the data
    /// directory's owner reversibly; otherwise as it is.
    static func asRoot<T>(_ body: () throws(StorageKeyError) -> T) throws(StorageKeyError) -> T {
        guard getuid() == 0, geteuid() != 0 else { return try body() }
        let (user, group) = (geteuid(), getegid())
        seteuid(0)
        setegid(0)
        defer {
            setegid(group)
            seteuid(user)
        }
        return try body()
    }
}

extension StorageKeySource {
    /// The key source of a command run on `dataDirectory`, for any user: as root on a systemd
    /// station the sealed credential is opened first (only root can), then the process acts as
    /// the directory's owner (``DataDirectory/actAsOwner(of:)``) and opens the data with it.
    ///
    /// With `keepRoot` (`kiosk storage rekey` and `recover`, which seal a new credential) the
    /// process can become root again for that (``DataDirectory/asRoot(_:)``).
    public static func forCommand(keyFile: String?, dataDirectory: URL, keepRoot: Bool = false) throws(StoreError) -> StorageKeySource {
        let source = resolve(keyFile: keyFile, dataDirectory: dataDirectory)
        var preloaded: StorageKeySource?
        if case .sealedCredential(let url) = source, geteuid() == 0 {
            do {
                preloaded = .unsealedCredential(try source.load(store: "", creating: false, dataDirectory: dataDirectory), credential: url)
            } catch { throw .storageKey(error) }
        }
        try DataDirectory.actAsOwner(of: dataDirectory, reversibly: keepRoot)
        return preloaded ?? resolve(keyFile: keyFile, dataDirectory: dataDirectory)
    }
}
