import CheckInCore
import Foundation
import KioskStore
import PretixClient

/// `kiosk bench pretix`: a full first download of an event's orders into a fresh station store,
/// against the baseline measured in the same run: a plain HTTP client paging through the same
/// endpoint (``PretixClient/pageThroughOrders(event:)``). Rounds alternate, so a warming server
/// favours neither side.
public enum PretixDownloadBenchmark {
    public struct Figures: Sendable {
        /// Seconds per round.
        public var baseline: [Double]
        public var station: [Double]
        public var pages: Int
        public var bytes: Int
        /// Guests in the station's store after the download.
        public var guests: Int

        public static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }

        /// How much longer the station takes than the plain client, in percent of the baseline's median.
        public var overheadPercent: Double {
            let base = Self.median(baseline)
            return base > 0 ? (Self.median(station) - base) / base * 100 : 0
        }
    }

    /// - Parameters:
    ///   - token: a new device's initialization token (the benchmark becomes that device).
    ///   - root: a scratch folder; one fresh store per round is made in it.
    public static func run(server: String, token: String, event: String, list: Int?, rounds: Int, root: URL,
                           identity: PretixDeviceIdentity) async throws -> Figures {
        let url = try PretixClient.parseServerURL(server)
        let device = try await PretixClient(server: url).initialize(token: token, identity: identity)
        let client = try PretixClient(server: url, device: device, timeout: .seconds(60))
        var figures = Figures(baseline: [], station: [], pages: 0, bytes: 0, guests: 0)
        for round in 0..<max(1, rounds) {
            let start = ContinuousClock.now
            (figures.pages, figures.bytes) = try await client.pageThroughOrders(event: event)
            figures.baseline.append((ContinuousClock.now - start).seconds)

            let directory = root.appendingPathComponent("station-\(round)")
            let database = try KioskDatabase.open(dataDirectory: directory, key: .besideThrowawayStore(directory))
            let link = try await PretixSync.choose(client: client, server: server, device: device, event: event, list: list, database: database,
                                                 identity: identity)
            let sync = PretixSync(database: database, link: link)
            let stationStart = ContinuousClock.now
            _ = try await sync.pull()
            figures.station.append((ContinuousClock.now - stationStart).seconds)
            figures.guests = try database.status().guests
            try? FileManager.default.removeItem(at: directory)
        }
        return figures
    }
}
