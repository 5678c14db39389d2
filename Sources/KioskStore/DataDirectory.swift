import Foundation

/// Where the station keeps its database, backups, badges and session.
public enum DataDirectory {
    /// `$KIOSK_DATA_DIR`; else `/var/lib/checkin-kiosk` when run by systemd as a system service;
    /// else `$XDG_DATA_HOME/checkin-kiosk` (default `~/.local/share/checkin-kiosk`).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["KIOSK_DATA_DIR"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if environment["INVOCATION_ID"] != nil, environment["XDG_DATA_HOME"] == nil, getuid() < 1000 {
            return URL(fileURLWithPath: "/var/lib/checkin-kiosk")
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
