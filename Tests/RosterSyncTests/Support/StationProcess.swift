import Foundation
import KioskTestSupport
import Synchronization

/// A `kiosk` child process whose stderr lines are collected while it runs (`--json` progress
/// lines), so a test can kill it at a chosen moment.
final class StationProcess: Sendable {
    let process: Process
    private let lines = Mutex<[String]>([])
    private let finished = Mutex(false)

    /// Standard input held open while the process runs (a headless station ends at its end).
    private let input: Pipe?

    /// - Parameter headless: `kiosk run --headless`: collect its event lines from stdout and keep
    ///   its standard input open, so it runs until killed.
    init(_ arguments: [String], headless: Bool = false) throws {
        let process = Process()
        process.executableURL = BuiltProducts.executable("kiosk")
        process.arguments = arguments
        let out = Pipe()
        input = headless ? Pipe() : nil
        process.standardOutput = headless ? out : FileHandle.nullDevice
        process.standardError = headless ? FileHandle.nullDevice : out
        process.standardInput = input ?? FileHandle.nullDevice
        self.process = process
        try process.run()
        let thread = Thread { [self] in
            var buffer = Data()
            let handle = out.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
            finished.withLock { $0 = true }
        }
        thread.start()
    }

    var output: [String] { lines.withLock { $0 } }

    /// Waits (polling, no time assertion) until `condition` holds or the process ended.
    func wait(until condition: ([String]) -> Bool) {
        while !condition(output) && !finished.withLock({ $0 }) { usleep(5_000) }
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Polls until `condition` holds (readiness, not a timed assertion); gives up after `limit`.
func eventually(limit: TimeInterval = 60, _ condition: () throws -> Bool) rethrows {
    let deadline = Date().addingTimeInterval(limit)
    while try !condition() && Date() < deadline { usleep(10_000) }
}
