import Foundation
import Synchronization

/// A `kiosk` child process whose stderr lines are collected while it runs (`--json` progress
/// lines), so a test can kill it at a chosen moment.
public final class StationProcess: Sendable {
    public let process: Process
    private let lines = Mutex<[(at: ContinuousClock.Instant, text: String)]>([])
    private let finished = Mutex(false)

    /// Standard input held open while the process runs (a headless station ends at its end).
    private let input: Pipe?

    /// - Parameter headless: `kiosk run --headless`: collect its event lines from stdout and keep
    ///   its standard input open, so it runs until killed.
    /// - Parameter log: where a `headless` process's stderr (its log) goes; discarded by default.
    public init(_ arguments: [String], headless: Bool = false, environment: [String: String] = [:], log: URL? = nil) throws {
        let process = Process()
        process.executableURL = BuiltProducts.executable("kiosk")
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe()
        input = headless ? Pipe() : nil
        process.standardOutput = headless ? out : FileHandle.nullDevice
        if headless, let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = headless ? FileHandle.nullDevice : out
        }
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
                    lines.withLock { $0.append((.now, line)) }
                }
            }
            finished.withLock { $0 = true }
        }
        thread.start()
    }

    public var output: [String] { lines.withLock { $0.map(\.text) } }

    /// The lines with the moment each arrived.
    public var timedOutput: [(at: ContinuousClock.Instant, text: String)] { lines.withLock { $0 } }

    /// Writes a line to the process's standard input (a `headless` process: a scanner's code).
    public func send(_ line: String) {
        input?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits (polling, no time assertion) until `condition` holds, the process ended, or
    /// `limit` seconds passed (a generous bound, so a station that never gets there fails its
    /// test instead of hanging the run); the caller checks the condition afterwards.
    public func wait(limit: TimeInterval = 180, until condition: ([String]) -> Bool) {
        let deadline = Date().addingTimeInterval(limit)
        while !condition(output) && !finished.withLock({ $0 }) && Date() < deadline { usleep(5_000) }
    }

    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Polls until `condition` holds (readiness, not a timed assertion); gives up after `limit`.
public func eventually(limit: TimeInterval = 60, _ condition: () throws -> Bool) rethrows {
    let deadline = Date().addingTimeInterval(limit)
    while try !condition() && Date() < deadline { usleep(10_000) }
}
