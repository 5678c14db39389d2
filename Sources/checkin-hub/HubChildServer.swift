import Foundation

/// A `checkin-hub serve` child process on a free loopback port (this same executable), with no
/// rate limit and warning-level logs, for `checkin-hub bench`.
struct HubChildServer: Sendable {
    let process: Process
    let port: Int
    let logPath: String

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// `arguments` go to `serve` after the defaults (e.g. `--poll-changes`).
    static func start(db: String, arguments: [String] = []) throws -> HubChildServer {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let logPath = NSTemporaryDirectory() + "checkin-hub-bench-\(getpid()).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--db", db, "--host", "127.0.0.1", "--port", "0", "--rate-limit", "0", "--log-level", "warning"] + arguments
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? log.close()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
               let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                return HubChildServer(process: process, port: port, logPath: logPath)
            }
            if !process.isRunning {
                throw StartError(description: "`checkin-hub serve` exited (status \(process.terminationStatus)): \(text.suffix(2_000)). Check --db.")
            }
            usleep(50_000)
        }
        process.terminate()
        throw StartError(description: "`checkin-hub serve` did not start listening within 120 s; see \(logPath).")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
