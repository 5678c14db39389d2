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
}
