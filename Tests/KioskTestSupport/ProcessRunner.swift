import Foundation

/// The outcome of a finished child process.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether the process ended by a signal rather than exiting.
    public var signaled: Bool

    /// `stdout` parsed as one JSON object.
    public func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let dictionary = object as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        return dictionary
    }
}

/// Runs a program to completion, with optional standard input and environment additions.
public func run(
    _ executable: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
    timeout: TimeInterval = 120
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child never blocks on a full pipe. On threads of
    // their own: the global dispatch queues have as many workers as cores, and with other tests'
    // children holding them, a child that had long exited was read only when one came free
    // (a refusal that should come at once measured at 70 s in CI).
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data(), errData = Data()
    group.enter()
    Thread { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }.start()
    group.enter()
    Thread { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }.start()
    if group.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        group.wait()
    }
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self),
        signaled: process.terminationReason == .uncaughtSignal)
}
