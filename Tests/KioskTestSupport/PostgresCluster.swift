import Foundation
import Synchronization

private let stopCommand = Mutex("true")

/// A private, throw-away PostgreSQL cluster on a loopback port, started once per test process
/// (initdb + pg_ctl from Debian's `postgresql` package; as the `postgres` user when run as root).
public final class PostgresCluster: Sendable {
    public let port: Int
    public let directory: TemporaryDirectory
    public let asPostgresUser: Bool

    public static let shared: Result<PostgresCluster, any Error> = Result { try PostgresCluster() }

    public static func bin(_ tool: String) throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        for version in versions {
            let url = root.appending(path: "\(version)/bin/\(tool)")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw ClusterError("PostgreSQL server tools not found: install the `postgresql` package (Kiosk/packages-test.txt).")
    }

    /// A cluster of its own that accepts TCP connections only over TLS (`hostssl`, `hostnossl …
    /// reject`) and with a password (`scram-sha-256`): user `kiosk`, database `postgres`, the
    /// server certificate `certificates`'s hub one. Stop it with ``stop()``.
    public static func requiringTLS(_ certificates: TestCertificates, password: String) throws -> PostgresCluster {
        try PostgresCluster(tls: (certificates, password))
    }

    private init(tls: (certificates: TestCertificates, password: String)? = nil) throws {
        directory = TemporaryDirectory("hub-pg")
        asPostgresUser = getuid() == 0
        port = 20_000 + Int.random(in: 0..<20_000)
        let dir = directory.path
        var initdbArguments = ["-D", dir + "/data", "-A", "trust", "-U", "kiosk", "--no-sync"]
        var serverOptions = "-c listen_addresses=127.0.0.1 -p \(port) -k \(dir) -c fsync=off -c max_connections=200"
        if let tls {
            try FileManager.default.copyItem(atPath: tls.certificates.certificateFile, toPath: dir + "/server.pem")
            try FileManager.default.copyItem(atPath: tls.certificates.keyFile, toPath: dir + "/server.key")
            try tls.password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
            try "local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\nhostnossl all all 127.0.0.1/32 reject\n"
                .write(toFile: dir + "/hba.conf", atomically: true, encoding: .utf8)
            initdbArguments = ["-D", dir + "/data", "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=" + dir + "/pw",
                               "-U", "kiosk", "--no-sync"]
            serverOptions += " -c ssl=on -c ssl_cert_file=\(dir)/server.pem -c ssl_key_file=\(dir)/server.key -c hba_file=\(dir)/hba.conf"
        }
        if asPostgresUser {
            _ = try run(URL(fileURLWithPath: "/bin/chown"), ["-R", "postgres", dir])
            _ = try run(URL(fileURLWithPath: "/bin/chmod"), ["755", dir])
        }
        // PostgreSQL refuses a key others may read.
        if tls != nil { _ = try run(URL(fileURLWithPath: "/bin/chmod"), ["600", dir + "/server.key"]) }
        try tool("initdb", initdbArguments)
        try tool("pg_ctl", ["-D", dir + "/data", "-o", serverOptions, "-l", dir + "/log", "-w", "start"])
        // Stop the server when the test process ends; libc's system(), not Foundation's Process,
        // which cannot wait for a child while the process exits.
        let stop = (asPostgresUser ? "runuser -u postgres -- " : "") + (try Self.bin("pg_ctl")).path
            + " -D '\(dir)/data' -m immediate -w stop >/dev/null 2>&1; rm -rf '\(dir)'"
        stopCommand.withLock { $0 += "; " + stop }
        _ = Self.stopAtExit
    }

    /// Registered once: runs every cluster's stop command.
    private static let stopAtExit: Void = { atexit { _ = system(stopCommand.withLock { $0 }) } }()

    /// Runs a server tool through `bash` with its output sent to a file and every other inherited
    /// descriptor closed: the server that pg_ctl starts keeps what it inherits, and a pipe of this
    /// test process (or of a test running beside it) held open by it never reaches end-of-file.
    private func tool(_ name: String, _ arguments: [String]) throws {
        let binary = try Self.bin(name)
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let output = directory.path + "/" + name + ".out"
        let closeInherited = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\" 2>/dev/null; done; "
        let command = closeInherited + "exec " + (asPostgresUser ? "runuser -u postgres -- " : "") + quoted + " >" + output + " 2>&1 </dev/null"
        let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", command])
        guard result.status == 0 else {
            throw ClusterError("\(name) failed: " + ((try? String(contentsOfFile: output, encoding: .utf8)) ?? ""))
        }
    }

    public func stop() {
        try? tool("pg_ctl", ["-D", directory.path + "/data", "-m", "immediate", "-w", "stop"])
        directory.remove()
    }

    /// A fresh database in the cluster; returns its URL.
    public func createDatabase() throws -> String {
        let name = "hub_" + UUID().uuidString.prefix(8).lowercased()
        try tool("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "kiosk", name])
        return "postgres://kiosk@127.0.0.1:\(port)/\(name)"
    }
}

public struct ClusterError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
