import Foundation
import KioskTestSupport
import Testing

/// Files and directories a station may be handed by mistake or on purpose: refused with a
/// clear message, with bounded memory, and without leaving files the station's service cannot open.
@Suite(.tags(.endToEnd), .endToEnd, .blocking)
struct HostileInputCommandTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func aRosterThatIsOneHugeFieldIsRefusedWithoutHundredsOfMegabytes() throws {
        let directory = TemporaryDirectory("hostile-import")
        defer { directory.remove() }
        let csv = directory.appending("one-field.csv")
        FileManager.default.createFile(atPath: csv.path, contents: nil)
        let handle = try FileHandle(forWritingTo: csv)
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<60 { handle.write(block) }
        try handle.close()
        let result = try run(URL(fileURLWithPath: "/usr/bin/time"),
                             ["-f", "maxrss_kb=%M", kiosk.path, "import", csv.path, "--data-dir", directory.appending("data").path, "--json"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("longer than 256 KB"), "\(result.stderr)")
        let rss = result.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss_kb=") }.flatMap { Int($0.dropFirst(10)) } ?? .max
        #expect(rss < 150_000, "peak memory \(rss) KB")
        #expect(try result.json()["error"] is String)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to hand the directory to another user"))
    func aCommandRunByAnotherUserThanTheDataDirectorysOwnerRefusesAndTouchesNothing() throws {
        let directory = TemporaryDirectory("hostile-owner")
        defer { directory.remove() }
        let data = directory.appending("data")
        #expect(try run(kiosk, ["migrate", "--data-dir", data.path]).status == 0)
        let nobody: uid_t = 65_534
        for name in try FileManager.default.contentsOfDirectory(atPath: data.path) { chown(data.appendingPathComponent(name).path, nobody, nobody) }
        chown(data.path, nobody, nobody)
        let before = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
        // Another user than the owner (root instead acts as the owner: StorageKeyProcessTests).
        let result = try run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                             ["--reuid=daemon", "--regid=daemon", "--clear-groups", kiosk.path, "status", "--json", "--data-dir", data.path])
        #expect(result.status == 77)
        #expect(result.stderr.contains("belongs to the user nobody"), "\(result.stderr)")
        #expect(result.stderr.contains("sudo -u nobody"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).sorted() == before, "no file of root's left behind")
    }
}
