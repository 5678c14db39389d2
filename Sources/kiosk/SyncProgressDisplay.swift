import Foundation
import KioskStore
import RosterSync
import Synchronization

/// Shows sync progress: with `--json`, one JSON object per line on stderr (stdout stays the one
/// summary document every `--json` command prints); else a bar on stderr when it is a terminal.
final class SyncProgressDisplay: Sendable {
    let json: Bool
    let terminal: Bool
    let drawn = Mutex(false)

    init(json: Bool) {
        self.json = json
        terminal = isatty(STDERR_FILENO) == 1
    }

    func show(_ progress: SyncProgress) {
        switch progress {
        case .roster(let done, let total, let rate):
            if json {
                line(["progress": "roster", "done": .int(done), "total": total.map { .int($0) } ?? .null, "rate": .double(rate)])
            } else if terminal {
                draw(done: done, total: total, label: "guests", suffix: rate > 0 ? String(format: " %.0f/s", rate) : "")
            }
        case .upload(let done, let pending):
            if json {
                line(["progress": "upload", "done": .int(done), "pending": .int(pending)])
            } else if terminal {
                draw(done: done, total: done + pending, label: "uploaded", suffix: "")
            }
        }
    }

    /// One JSON line on stderr, written at once, so a reader sees the progress while it happens.
    func line(_ value: JSONValue) {
        FileHandle.standardError.write(Data((value.serialized + "\n").utf8))
    }

    func draw(done: Int, total: Int?, label: String, suffix: String) {
        let width = 30
        var line = "\r"
        if let total, total > 0 {
            let filled = min(width, done * width / total)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            line += "\(done)/\(total) \(label)"
        } else {
            line += "\(done) \(label)"
        }
        FileHandle.standardError.write(Data((line + suffix + "\u{1B}[K").utf8))
        drawn.withLock { $0 = true }
    }

    func finish() {
        if drawn.withLock({ $0 }) { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
