import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// The hub's SQLite files hold password hashes, token hashes and guests' personal data: only the
/// hub's user may read them, however `checkin-hub` was started (security review F8: a shell's
/// umask 022 made them world-readable outside the systemd unit).
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct HubFilePermissionsProcessTests {
    let hub = BuiltProducts.executable("checkin-hub")

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func aDatabaseServedFromAShellWithUmask022IsTheHubsAlone() async throws {
        let directory = TemporaryDirectory("hub-files")
        defer { directory.remove() }
        // A folder that does not exist yet: the hub makes it, for itself alone.
        let folder = directory.appending("data").path
        let file = folder + "/hub.sqlite"
        let server = try HubProcess(db: "sqlite:" + file, umask: "022")
        defer { server.stop() }
        // A write, so the WAL holds something.
        #expect(try run(hub, ["staff", "add", "--db", "sqlite:" + file, "--email", "a@x.org", "--name", "A", "--role", "staff"], stdin: "a-password-1\n").status == 0)
        _ = try await HubClient(base: server.base).send("POST", HubPaths.signIn, json: SignInRequest(email: "a@x.org", password: "a-password-1"))
        #expect(try Self.mode(folder) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try Self.mode(file + suffix) == 0o600, "hub.sqlite\(suffix)")
        }
    }

    @Test func anExistingWorldReadableDatabaseIsMadeTheHubsAloneByAnyCommand() throws {
        let directory = TemporaryDirectory("hub-files")
        defer { directory.remove() }
        let file = directory.appending("hub.sqlite").path
        // Made before this fix, or copied with a loose mode.
        #expect(try run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"umask 022 && exec "$0" "$@""#, hub.path,
                                                         "event", "create", "--db", "sqlite:" + file, "--name", "Conf"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(try run(hub, ["staff", "list", "--db", "sqlite:" + file]).status == 0)
        #expect(try Self.mode(file) == 0o600)
    }
}
