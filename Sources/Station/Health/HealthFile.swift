import CheckInCore
import Foundation
import KioskStore

/// The running station's health, kept beside its database (`station-health.json`, mode 0600)
/// so `kiosk status --json` (support staff, the hub's station list later) reads what the
/// console shows. A file, not a database row: it is rewritten on every change and every few
/// seconds, and must stay readable when storage is the fault.
public struct HealthFile: Sendable {
    public let url: URL

    public init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent("station-health.json")
    }

    /// Writes the health of the station running as process `pid` (atomically: a reader sees
    /// the old or the new file, never half of one).
    public func write(_ health: StationHealth, pid: Int32 = getpid(), at: Timestamp = .now()) {
        let document: JSONValue = ["pid": .int(Int(pid)), "updated_at": .string(at.iso8601), "health": health.json]
        let temporary = url.path + ".tmp"
        let data = Data((document.serialized + "\n").utf8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written == data.count { rename(temporary, url.path) } else { unlink(temporary) }
    }

    /// The `station` object of `kiosk status --json`: `{"running": false}` when no station
    /// runs on this data directory (no file, or its process is gone).
    public func statusJSON() -> JSONValue {
        guard let data = FileManager.default.contents(atPath: url.path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let pid = object["pid"] as? Int, pid > 0, kill(pid_t(pid), 0) == 0 || errno == EPERM
        else { return ["running": false] }
        return ["running": true, "pid": .int(pid), "updated_at": .optional(object["updated_at"] as? String),
                "health": Self.json(object["health"])]
    }

    /// Turns the parsed file back into a ``JSONValue`` (strings and numbers only, as written).
    private static func json(_ value: Any?) -> JSONValue {
        switch value {
        case let string as String: .string(Sanitized.text(string))
        case let number as Int: .int(number)
        case let bool as Bool: .bool(bool)
        case let object as [String: Any]: .object(object.mapValues { json($0) })
        case let array as [Any]: .array(array.map { json($0) })
        default: .null
        }
    }

    public func remove() { unlink(url.path) }
}
