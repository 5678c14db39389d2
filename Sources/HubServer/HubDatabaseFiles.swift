import Foundation
import Glibc

/// The hub's SQLite files hold password hashes, token hashes and guests' personal data: they are
/// made readable by the hub's user alone (0600, and their folder 0700 where the hub makes it),
/// whatever umask `checkin-hub` was started with. The packaged unit's `UMask=0077` covers the
/// service only; a shell's 022 made them world-readable (security review F8).
enum HubDatabaseFiles {
    /// Makes `path`'s folder (0700) when it is missing, the file itself 0600 before SQLite opens
    /// it (SQLite gives its `-wal` and `-shm` the database's mode), and any of the three that
    /// exist already 0600.
    /// - Throws: ``HubStoreError/invalidDatabaseURL(_:)`` naming the folder when it cannot be made.
    static func prepare(_ path: String) throws {
        guard path != ":memory:", !path.hasPrefix("file:") else { return }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw HubStoreError.invalidDatabaseURL("sqlite:\(path) (its folder \(folder) cannot be made: \(error.localizedDescription))")
            }
        }
        // Created here, 0600, unless it exists: O_EXCL never truncates a database.
        let created = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            // Another user's file (root reading the hub's database) keeps its mode: chmod fails, harmlessly.
            _ = chmod(file, 0o600)
        }
    }
}
