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
}
