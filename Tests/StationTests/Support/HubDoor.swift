import Foundation
import KioskTestSupport

/// A real station at a door: a data directory signed in to a real hub with the hub's event
/// chosen and downloaded (all through `kiosk`'s own command line), and, once started, the
/// headless `kiosk run` process taking codes on its standard input.
struct HubDoor {
    let name: String
    let data: URL
    let kiosk = BuiltProducts.executable("kiosk")

    /// Signs `name` in to `hubURL` as `hub`'s staff member, chooses `event` and downloads it.
    init(_ name: String, hub: RealHub, url hubURL: String? = nil, event: String? = nil, directory: TemporaryDirectory) throws {
        self.name = name
        data = directory.appending(name.replacingOccurrences(of: " ", with: "-"))
        let signIn = try run(kiosk, ["signin", "--hub", hubURL ?? hub.url, "--email", hub.email, "--station", name, "--password-env", "PW",
                                     "--data-dir", data.path], environment: ["PW": hub.password])
        guard signIn.status == 0 else { throw HubFailure("\(name) signin: \(signIn.stderr)") }
        let use = try run(kiosk, ["use", event ?? hub.eventID, "--data-dir", data.path])
        guard use.status == 0 else { throw HubFailure("\(name) use: \(use.stderr)") }
        let sync = try run(kiosk, ["sync", "--data-dir", data.path], timeout: 300)
        guard sync.status == 0 else { throw HubFailure("\(name) sync: \(sync.stderr)") }
    }

    /// `kiosk run --headless` on this door's data directory, no printer, its defaults otherwise.
    func start() throws -> StationProcess {
        let station = try StationProcess(["run", "--headless", "--printer", "none", "--no-demo", "--data-dir", data.path], headless: true,
                                         environment: ["KIOSK_LOG_LEVEL": "debug"], log: data.appending(path: "station.log"))
        station.wait(limit: 60) { lines in lines.contains { $0.contains(#""event":"ready""#) } }
        return station
    }

    /// `kiosk ARGUMENTS --data-dir <this door> --json`, its JSON answer.
    func command(_ arguments: [String]) throws -> [String: Any] {
        let result = try run(kiosk, arguments + ["--data-dir", data.path, "--json"])
        return try result.json()
    }
}

extension StationProcess {
    /// The headless `decision` lines for `code`, parsed, in order.
    func decisions(for code: String) -> [[String: Any]] {
        output.compactMap { line in
            guard line.contains(#""event":"decision""#), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["code"] as? String == code else { return nil }
            return object
        }
    }

    /// Presents `code` (as a scanner would) and waits for its answer.
    func present(_ code: String) -> [String: Any]? {
        let before = decisions(for: code).count
        send(code)
        wait(limit: 30) { _ in decisions(for: code).count > before }
        let answers = decisions(for: code)
        return answers.count > before ? answers.last : nil
    }
}
