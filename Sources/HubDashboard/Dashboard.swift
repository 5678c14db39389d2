import HubAPI
import HubServer
import Hummingbird

/// The organizers' dashboard: its route table beside the API's, each page behind its access
/// (``RouteAccess``, applied by ``WebAccessMiddleware``) and errors as a page in words
/// (``WebRoutes/page(_:_:_:)``).
///
/// Roles, as for the API: organizers see every event, support and check-in staff their
/// assigned ones; an event page of any other event is a 404.
public struct Dashboard: HubPages {
    let hub: HubRoutes
    /// The live pages' figures, shared by every open page of an event.
    let liveSnapshots: LiveSnapshots
    /// Live page streams open per session and per staff member.
    let liveStreams: LiveStreamQuota

    public init(hub: HubRoutes) {
        self.hub = hub
        liveSnapshots = LiveSnapshots(store: hub.store, feed: hub.feed)
        let limits = hub.configuration.limits
        liveStreams = LiveStreamQuota(perSession: limits.liveStreamsPerSession, perStaff: limits.liveStreamsPerStaff)
    }

    public func add(to router: Router<HubRequestContext>) {
        let open = router.group()
        open.get("/", use: { _, _ in WebResponse.redirect(to: WebRoutes.home) })
        SignInPage(hub: hub).addOpen(to: open)
        StaticFiles(hub: hub).add(to: open)

        let signedIn = router.group().add(middleware: WebAccessMiddleware(hub: hub, access: .signedIn()))
        SignInPage(hub: hub).addSignedIn(to: signedIn)
        EventsPage(hub: hub).add(to: signedIn)

        // Check-in staff too: the live page is the one event page they have.
        let event = router.group("/events/:event").add(middleware: WebAccessMiddleware(hub: hub, access: .event()))
        LivePage(hub: hub, snapshots: liveSnapshots).add(to: event)
        LiveStream(hub: hub, snapshots: liveSnapshots, quota: liveStreams).add(to: event)
        // Organizers and support: the event's stations (the API's list, as a page).
        let support = router.group("/events/:event").add(middleware: WebAccessMiddleware(hub: hub, access: .event(.support)))
        StationsPage(hub: hub).add(to: support)
        // Organizers and support: what needs a look, and the actions on it (marks, merges, undos).
        ReviewPage(hub: hub).add(to: support)
        ExportFiles(hub: hub).add(to: support)
        // Organizers and support: the guest lookup, each guest's page and its changes.
        GuestsPage(hub: hub).add(to: support)
        GuestPage(hub: hub).add(to: support)
        // Organizers: events, their access types and rosters, and the staff accounts.
        let organizer = router.group().add(middleware: WebAccessMiddleware(hub: hub, access: .signedIn(.organizer)))
        EventEditPage(hub: hub).addCreate(to: organizer)
        StaffPage(hub: hub).add(to: organizer)
        let organizerEvent = router.group("/events/:event").add(middleware: WebAccessMiddleware(
            hub: hub, access: .event(.organizer), multipartBytes: RosterUploadPage.maximumBodyBytes))
        EventEditPage(hub: hub).addEdit(to: organizerEvent)
        RosterUploadPage(hub: hub).add(to: organizerEvent)
    }
}
