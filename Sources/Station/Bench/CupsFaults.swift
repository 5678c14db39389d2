import Foundation

/// Real CUPS faults for the door benchmark: the queue paused with `cupsdisable`, and, on a
/// private rig started by `Kiosk/cups-test-rig.sh start DIR QUEUE`, the simulated printer out
/// of labels or killed mid-job (its mode file and pid file live in DIR).
struct CupsFaults: Sendable {
    let queue: String
    let rig: URL?

    func pause(_ on: Bool) {
        run(on ? "/usr/sbin/cupsdisable" : "/usr/sbin/cupsenable", on ? ["-r", "bench: paused", queue] : [queue])
    }

    func outOfMedia(_ on: Bool) {
        guard let rig else { return }
        try? (on ? "media-empty" : "ok").write(to: rig.appendingPathComponent("mode/\(queue)"), atomically: true, encoding: .utf8)
    }

    func kill(_ on: Bool) {
        guard let rig else { return }
        if on {
            let pidFile = rig.appendingPathComponent("printer-\(queue).pid")
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                Glibc.kill(pid, SIGKILL)
            }
        } else {
            run("/bin/bash", ["Kiosk/cups-test-rig.sh", "restart-printer", rig.path, queue])
        }
    }

    /// Runs a CUPS tool to completion (tens of milliseconds), on the caller's thread.
    private func run(_ tool: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {}
    }
}
