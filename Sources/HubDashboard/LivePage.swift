import CheckInCore
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird

/// `GET /events/{id}`: the live event page. Any role that sees the event (check-in staff too).
struct LivePage {
    let site: WebSite
    let snapshots: LiveSnapshots

    /// What the `live` template reads.
    struct Model {
        var frame: PageFrame
        var eventID: String
        var eventName: String
        var when: String
        var zone: String
        // The counts, flat, so the template and the `live-groups` partial read them by name.
        var expected: Int
        var checkedIn: Int
        var inside: Int
        var duplicates: Int
        var conflicts: Int
        var updatedAt: String
        var accessTypes: [LiveCounts.AccessTypeRow]
        var stations: [StatsGroup]
        var hasAccessTypes: Bool
        var hasStations: Bool
        var recent: [LiveCounts.FeedRow]
        var hasRecent: Bool
        var arrivals: ArrivalsChart
        /// Organizers and support see the event's stations page.
        var seesStations: Bool
        /// Organizers edit the event and upload its roster.
        var isOrganizer = false
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get(use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            let time = WebTime(timeZone: event.timeZone)
            // Up to 2 s old: the page's stream sends the newest figures as soon as it opens.
            let snapshot = try await snapshots.snapshot(event: event, acceptingUpTo: .seconds(2))
            let counts = LiveCounts(snapshot.stats, recent: snapshot.recent, arrivals: snapshot.arrivals,
                                    accessTypeNames: snapshot.accessTypeNames, at: .now(), time: time)
            let model = Model(
                frame: PageFrame(event.name, for: caller, request, script: "live.js"), eventID: event.id, eventName: event.name,
                when: EventsPage.when(event, time), zone: time.zoneName,
                expected: counts.expected, checkedIn: counts.checkedIn, inside: counts.inside, duplicates: counts.duplicates,
                conflicts: counts.conflicts, updatedAt: counts.updatedAt, accessTypes: counts.accessTypes, stations: counts.stations,
                hasAccessTypes: counts.hasAccessTypes, hasStations: counts.hasStations, recent: counts.recent, hasRecent: counts.hasRecent,
                arrivals: counts.arrivals,
                seesStations: caller.staff.role >= .support, isOrganizer: caller.staff.role == .organizer)
            return WebResponse.html(WebAssets.render("live", model))
        })
    }
}
