import Foundation
import KioskTestSupport

/// The real `kiosk run` console in a private tmux server (its own socket), driven with
/// send-keys and read with capture-pane.
final class TmuxConsole {
    let socket = "kiosk-test-\(UUID().uuidString.prefix(8))"
    let directory: TemporaryDirectory
    let exitFile: URL

    /// Starts `kiosk run ARGS` in a `columns`×`rows` window; the pane stays open after the
    /// station exits and its exit status is written to a file.
    /// - Parameter wrapper: a command that runs the station (e.g. `faketime DATE`).
    init(_ arguments: [String], directory: TemporaryDirectory, environment: [String: String] = [:], wrapper: [String] = [],
         columns: Int = 100, rows: Int = 30) throws {
        self.directory = directory
        exitFile = directory.appending("exit-status")
        let kiosk = BuiltProducts.executable("kiosk").path
        let env = (["TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
            .map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let prefix = wrapper.map { Self.quote($0) + " " }.joined()
        let command = "env \(env) \(prefix)\(Self.quote(kiosk)) run \(arguments.map(Self.quote).joined(separator: " ")) 2>\(Self.quote(directory.appending("stderr.log").path)); echo $? > \(Self.quote(exitFile.path)); sleep 600"
        try tmux(["-u", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command])
        let pids = try tmux(["display-message", "-p", "-t", "0", "#{pid} #{pane_pid}"]).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        serverPID = pids.first
        panePID = pids.count > 1 ? pids[1] : nil
    }

    /// The tmux server and the pane's shell (a process group leader), both started by this test.
    private var serverPID: Int32?
    private var panePID: Int32?

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs a tmux client command. `new-session` forks the server, which would inherit (and
    /// hold open) any output pipe, so output goes to a file; posix_spawn + waitpid keep the
    /// wait deterministic.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = directory.appending("tmux-out-\(UUID().uuidString.prefix(6))").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // The test runner's threads block most signals and posix_spawn inherits that mask: a
        // tmux server started with it never sees SIGCHLD/SIGTERM and never exits. Reset both.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw ScreenMismatch(expected: "tmux to start", screen: "posix_spawn failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// Keys in tmux's notation ("Enter", "F2", "Escape") or literal text with `literal`.
    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
    }

    /// Text a person typed, taken as typed rather than as a keyboard-wedge scan (that is
    /// ``scan(_:)``): waits until the screen shows it (the console released the keys it held
    /// while they could have been a scan), then pauses, so the next key (Enter) is never part of
    /// its burst. A pause alone is not enough on a loaded machine: when the console's thread is
    /// held up longer than the pause, the text and the Enter wait in the terminal together and
    /// are read as one burst, as a scanner's would be.
    func type(_ text: String) throws {
        let before = try screen()
        try send(text, literal: true)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, try screen() == before {
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.1)
    }

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "0"]) }

    /// Types `text` (none: Enter alone), presses Enter, and waits until the screen shows `expected`.
    @discardableResult
    func enter(_ text: String = "", thenWaitFor expected: String) throws -> String {
        if !text.isEmpty { try type(text) }
        try send("Enter")
        return try waitFor(expected)
    }

    /// Waits (up to a generous limit, for a loaded CI machine) until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 30) throws -> String {
        try waitForScreen(expected: text, seconds: seconds) { $0.contains(text) }
    }

    /// Waits (up to the same limit) until the screen no longer contains `text`: a change that
    /// reaches the console through its own event path, a few milliseconds after another.
    @discardableResult
    func waitForAbsence(of text: String, seconds: Double = 30) throws -> String {
        try waitForScreen(expected: "no \(text)", seconds: seconds) { !$0.contains(text) }
    }

    func waitForScreen(expected: String, seconds: Double, _ matches: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if matches(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw ScreenMismatch(expected: expected, screen: last)
    }

    /// Waits until the station process has exited and returns its status.
    func waitForExit(seconds: Double = 30) throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOf: exitFile, encoding: .utf8), let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return status
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The `kiosk run` process: the pane shell's child.
    func stationPID() throws -> Int32? {
        guard let panePID else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(panePID)/task/\(panePID)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.first
    }

    /// Kills this test's tmux server with SIGKILL, as when the box's terminal session dies
    /// without a word: the pane's terminal is gone, and no hang-up reaches the station.
    func killServerAbruptly() {
        if let serverPID { kill(serverPID, SIGKILL) }
        serverPID = nil
    }

    /// Ends the station, the pane and this test's tmux server (by pid too, in case the
    /// server is stuck).
    /// Waits (up to 20 s) for the station to be gone, so a test that starts another on the same
    /// data directory does not find it still holding the directory's lock.
    func stop() {
        let station = try? stationPID()
        if let panePID { kill(-panePID, SIGTERM) }
        _ = try? tmux(["kill-server"])
        if let serverPID { kill(serverPID, SIGTERM) }
        panePID = nil
        serverPID = nil
        guard let station = station ?? nil else { return }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, Self.isRunning(station) { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Whether `pid` is a live process (not gone, not a zombie waiting to be reaped).
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? false)
    }

    deinit { stop() }
}

struct ScreenMismatch: Error, CustomStringConvertible {
    var expected: String
    var screen: String
    var description: String { "screen never showed \"\(expected)\"; last screen:\n\(screen)" }
}
