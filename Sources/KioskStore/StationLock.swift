import CheckInCore
import Foundation

/// One station per data directory: every process that writes to it (`kiosk run`, `import`,
/// `checkin`, `sync`…) holds an exclusive lock on `<data-dir>/station.lock` for as long as it
/// runs, so two stations never share one outbox and one print queue. Read-only commands
/// (`status`, `search`, `export`) take no lock and work beside a running station.
///
/// The lock is `flock(2)`: the kernel releases it when the process ends, however it ends (a
/// crash or `kill -9` leaves nothing to clean up). The holder writes who it is into the file, so
/// the one refused can say which process to stop.
/// ```swift
/// let lock = try StationLock.acquire(in: dataDirectory, command: "kiosk run --headless")
/// defer { withExtendedLifetime(lock) {} }   // held until here
/// ```
public final class StationLock: Sendable {
    /// Who holds the lock, as it wrote itself into the file.
    public struct Holder: Sendable, Hashable {
        public var pid: Int32
        public var command: String
        public var since: Timestamp

        public init(pid: Int32, command: String, since: Timestamp) {
            self.pid = pid
            self.command = command
            self.since = since
        }

        /// The file's text: `pid`, `since` (milliseconds) and the command, one per line.
        var text: String { "\(pid)\n\(since.milliseconds)\n\(command)\n" }

        init?(text: String) {
            let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
            guard lines.count >= 3, let pid = Int32(lines[0]), let since = Int64(lines[1]) else { return nil }
            self.init(pid: pid, command: String(lines[2]).trimmingCharacters(in: .newlines), since: Timestamp(milliseconds: since))
        }
    }

    /// The lock file of a data directory.
    public static func url(in dataDirectory: URL) -> URL { dataDirectory.appendingPathComponent("station.lock") }

    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Takes the data directory's lock for this process, or says who has it.
    /// - Parameter command: what this process is, as the refused one will read it ("kiosk run --headless").
    /// - Throws: ``StoreError/anotherStationRuns(path:holder:)`` while another process holds it;
    ///   ``StoreError/dataDirectoryUnusable(path:reason:)`` when the file cannot be made.
    public static func acquire(in dataDirectory: URL, command: String, now: Timestamp = .now()) throws(StoreError) -> StationLock {
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .dataDirectoryUnusable(path: dataDirectory.path, reason: error.localizedDescription)
        }
        let file = url(in: dataDirectory)
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .dataDirectoryUnusable(path: dataDirectory.path, reason: "cannot open station.lock: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            let holder = Holder(text: read(descriptor))
            close(descriptor)
            if busy { throw .anotherStationRuns(path: dataDirectory.path, holder: holder) }
            throw .dataDirectoryUnusable(path: dataDirectory.path, reason: "cannot lock station.lock: \(reason)")
        }
        let text = Array(Holder(pid: getpid(), command: command, since: now).text.utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return StationLock(descriptor: descriptor)
    }

    /// This process's own command line, as a holder names itself: the program's name and its
    /// arguments (never a secret: passwords and keys are not taken on the command line).
    public static var processCommand: String {
        let arguments = CommandLine.arguments
        guard let program = arguments.first else { return "kiosk" }
        return ([URL(fileURLWithPath: program).lastPathComponent] + arguments.dropFirst()).joined(separator: " ")
    }

    private static func read(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }
}
