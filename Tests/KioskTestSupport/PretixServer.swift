import Foundation
import Synchronization

private let stopAtExitCommands = Mutex("true")

/// A real pretix (`pretix==2026.8.0` from PyPI) on a loopback port for one test or suite, seeded
/// by `Kiosk/pretix-seed.py` in a temporary directory and started by `Kiosk/pretix-server.sh`:
/// SQLite, one gunicorn worker, no Celery or Redis. What the seed made is ``facts``.
///
/// Stop it with ``remove()`` (or ``stop()`` and ``resume()`` for a pretix that is down for a while);
/// one still running when the test process exits is stopped then.
public final class PretixServer: Sendable {
    public static let script = BuiltProducts.packageRoot.appendingPathComponent("Kiosk/pretix-server.sh")

    /// Why no pretix server can start here, or `nil` when one can: pretix is installed by
    /// `bash Kiosk/pretix-server.sh install` (Kiosk/setup-test.sh runs it).
    public static let missing: String? = {
        let installed = (try? run(URL(fileURLWithPath: "/bin/bash"), [script.path, "installed"], timeout: 60))?.status == 0
        return installed ? nil : "pretix is not installed here (bash Kiosk/pretix-server.sh install)"
    }()

    /// In CI (`CI=true`) a missing pretix fails the tests instead of skipping them: the server
    /// script installs it itself.
    public static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// For `@Suite(.enabled(if: PretixServer.canRun, …))`.
    public static var canRun: Bool { missing == nil || required }

    public let directory: TemporaryDirectory
    /// `http://127.0.0.1:PORT`
    public let url: String
    public let facts: PretixFacts

    /// Seeds a fresh pretix and serves it. `orders` adds the event "big" with that many paid
    /// one-position orders (a 20,000-position download takes about half a minute to seed).
    public init(orders: Int = 0) throws {
        directory = TemporaryDirectory("pretix")
        let arguments = ["start", directory.path] + (orders > 0 ? ["--orders", String(orders)] : [])
        // The first start on a machine installs pretix and migrates (minutes).
        let started: [String: String]
        do {
            started = try Self.script(arguments, timeout: 900)
        } catch {
            directory.remove()
            throw error
        }
        guard let url = started["PRETIX_URL"], let factsPath = started["PRETIX_FACTS"] else {
            directory.remove()
            throw PretixFailure("pretix-server.sh start printed no URL: \(started)")
        }
        self.url = url
        // At exit: stopped, and its directory removed (a suite's shared server is never removed by a test).
        let stop = "bash '\(Self.script.path)' stop '\(directory.path)' >/dev/null 2>&1; rm -rf '\(directory.path)'"
        stopAtExitCommands.withLock { $0 += "; " + stop }
        _ = Self.stopAtExit
        do {
            facts = try PretixFacts.decode(try Data(contentsOf: URL(fileURLWithPath: factsPath)))
        } catch {
            _ = try? Self.script(["stop", directory.path], timeout: 60)
            directory.remove()
            throw PretixFailure("the seed's facts do not read: \(error)")
        }
    }

    /// The server's API as the organizer's team (every permission).
    public var organizer: PretixAPI { PretixAPI(base: url, credential: .team(facts.teamToken)) }

    /// The server's API as a device with `token` (its API token from `device/initialize`).
    public func device(token: String) -> PretixAPI { PretixAPI(base: url, credential: .device(token)) }

    /// The server's API with no credential (`device/initialize`).
    public var anonymous: PretixAPI { PretixAPI(base: url, credential: .none) }

    /// Stops the server; its data stays for ``resume()``.
    public func stop() throws {
        _ = try Self.script(["stop", directory.path], timeout: 60)
    }

    /// Serves the same data again on the same port (pretix back after an outage).
    public func resume() throws {
        _ = try Self.script(["resume", directory.path], timeout: 120)
    }

    /// Stops the server and deletes its directory.
    public func remove() {
        try? stop()
        directory.remove()
    }

    /// The gunicorn master's process id while it runs (its worker is in its process group).
    public var processGroup: Int32? {
        (try? String(contentsOf: directory.appending("gunicorn.pid"), encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// gunicorn's log: its start, every request, and pretix's errors. For a failing test's message.
    public var log: String {
        (try? String(contentsOf: directory.appending("gunicorn.log"), encoding: .utf8)) ?? "(no gunicorn log)"
    }

    /// Runs `Kiosk/pretix-server.sh` and returns the `NAME=value` lines it printed.
    @discardableResult
    static func script(_ arguments: [String], timeout: TimeInterval) throws -> [String: String] {
        let result = try run(URL(fileURLWithPath: "/bin/bash"), [script.path] + arguments, timeout: timeout)
        guard result.status == 0 else {
            throw PretixFailure("pretix-server.sh \(arguments.first ?? "") failed (\(result.status)):\n\(result.stderr)")
        }
        var printed: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { printed[String(parts[0])] = String(parts[1]) }
        }
        return printed
    }

    /// Registered once: stops every server still running when the test process exits (libc's
    /// system(), not Foundation's Process, which cannot wait for a child while the process exits).
    private static let stopAtExit: Void = { atexit { _ = system(stopAtExitCommands.withLock { $0 }) } }()
}

/// Live (not zombie) processes in process group `group`, read from /proc.
public func liveProcesses(inGroup group: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        // After "pid (name) ": state, ppid, pgrp.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
    }
}
