import CheckInCore
import HubAPI
import HubServer
import Hummingbird

/// `GET /events/{id}/stations`: every station that reported for the event, with its last
/// contact, pending uploads, printer and camera in the words its staff see, software version
/// and signed-in staff; a station silent for longer than `--station-silent-seconds` is marked.
/// Organizers and support (check-in staff of the event get 403, as from the API).
struct StationsPage {
    let site: WebSite
    let stations: any StationRepository

    /// What the `stations` template reads.
    struct Model {
        var frame: PageFrame
        var eventID: String
        var eventName: String
        var zone: String
        var silentAfter: String
        var stations: [Row]
        var hasStations: Bool
    }

    /// One station, in words.
    struct Row {
        var name: String
        var deviceID: String
        var lastContact: String
        var silent: Bool
        var state: String
        var pending: Int
        var printer: String
        var printerState: String
        var camera: String
        var version: String
        var staffName: String
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("stations", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            let time = WebTime(timeZone: event.timeZone)
            let silence = StationSilence(afterSeconds: site.configuration.stationSilentSeconds)
            let now = Timestamp.now()
            let rows = try await stations.stationContacts(event: event.id).map { contact in
                let silent = silence.isSilent(lastContact: contact.receivedAt, now: now)
                return Row(
                    name: contact.report.name, deviceID: contact.deviceID, lastContact: time.dateTime(contact.receivedAt), silent: silent,
                    state: silent ? "silent" : "in contact", pending: contact.report.pending,
                    printer: contact.report.printer?.words ?? "not reported (no station running)",
                    printerState: contact.report.printer?.state ?? "unknown",
                    camera: contact.report.camera?.words ?? "not reported", version: contact.report.version, staffName: contact.report.staffName)
            }
            let seconds = silence.afterSeconds
            let model = Model(
                frame: PageFrame("Stations · \(event.name)", for: caller, request), eventID: event.id,
                eventName: event.name, zone: time.zoneName,
                silentAfter: seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s", stations: rows, hasStations: !rows.isEmpty)
            return WebResponse.html(WebAssets.render("stations", model))
        })
    }
}
