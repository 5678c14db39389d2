import Foundation
import KioskTestSupport
import Testing

/// One station per data directory: beside a running `kiosk run`, every command that writes is
/// refused with a message naming the running one, and the read-only ones keep working.
/// (Two `kiosk run` on one directory both ran and shared one outbox and one print queue.)
@Suite(.serialized, .hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct OneStationPerDataDirectoryTests {
    let kiosk = BuiltProducts.executable("kiosk")

    @Test func besideARunningStationWritingCommandsAreRefusedNamingItAndStatusStillAnswers() throws {
        let directory = TemporaryDirectory("one-station")
        defer { directory.remove() }
        let data = directory.appending("data").path
        let station = try StationProcess(["run", "--headless", "--printer", "none", "--data-dir", data], headless: true)
        defer { station.kill9() }
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        #expect(station.present("DEMO-0001")?["decision"] as? String == "admitted")

        let pid = String(station.process.processIdentifier)
        let second = try run(kiosk, ["run", "--headless", "--printer", "none", "--data-dir", data], stdin: "DEMO-0002\n", timeout: 60)
        #expect(second.status == 73, "a second station on the same data directory: \(second.stdout) \(second.stderr)")
        for words in ["Another kiosk is running on this data directory", "PID \(pid)", "kiosk run --headless", "since"] {
            #expect(second.stderr.contains(words), "\(second.stderr)")
        }
        #expect(!second.stdout.contains(#""event":"decision""#), "the second station decided nothing")

        let csv = directory.appending("roster.csv")
        try "code,name\nLOCK-1,Lena Lock\n".write(to: csv, atomically: true, encoding: .utf8)
        for command in [["import", csv.path], ["checkin", "DEMO-0003"], ["sync"]] {
            let refused = try run(kiosk, command + ["--data-dir", data])
            #expect(refused.status == 73, "\(command[0]): \(refused.stderr)")
            #expect(refused.stderr.contains("PID \(pid)"), "\(command[0]): \(refused.stderr)")
        }

        let status = try run(kiosk, ["status", "--data-dir", data, "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect((try status.json()["run"] as? [String: Any])?["running"] as? Bool == true)
        let search = try run(kiosk, ["search", "DEMO-0001", "--data-dir", data, "--json"])
        #expect(search.status == 0, "\(search.stderr)")

        // Once it has stopped, the directory is free again.
        station.kill9()
        let imported = try run(kiosk, ["import", csv.path, "--data-dir", data])
        #expect(imported.status == 0, "\(imported.stderr)")
    }
}

extension StationProcess {
    /// Presents `code` on the headless station's standard input and waits for its decision line.
    func present(_ code: String) -> [String: Any]? {
        send(code)
        wait(limit: 30) { lines in lines.contains { $0.contains(#""event":"decision""#) && $0.contains(code) } }
        return output.lazy.filter { $0.contains(#""event":"decision""#) && $0.contains(code) }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first
    }
}
