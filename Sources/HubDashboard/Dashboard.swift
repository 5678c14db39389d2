import HubAPI
import HubServer
import Hummingbird

/// The organizers' dashboard: its route table beside the API's, each page behind its access
/// (``RouteAccess``, applied by ``WebAccessMiddleware``), its errors shown as a page in words
/// and its requests counted, once, by ``WebPageMiddleware``.
///
/// Roles, as for the API: organizers see every event, support and check-in staff their
/// assigned ones; an event page of any other event is a 404.
public struct Dashboard: HubPages {
    let hub: HubRoutes
    let site: WebSite
    /// The live pages' figures, shared by every open page of an event.
    let liveSnapshots: LiveSnapshots
    /// Live page streams open per session and per staff member.
    let liveStreams: LiveStreamQuota

    public init(hub: HubRoutes) {
        self.hub = hub
        site = WebSite(logger: hub.logger, metrics: hub.metrics, configuration: hub.configuration)
        liveSnapshots = LiveSnapshots(store: hub.store, feed: hub.feed)
        let limits = hub.configuration.limits
        liveStreams = LiveStreamQuota(perSession: limits.liveStreamsPerSession, perStaff: limits.liveStreamsPerStaff)
    }

    public func add(to router: Router<HubRequestContext>) {
        let store = hub.store
        let pages = WebPageMiddleware(site: site)
        let open = router.group().add(middleware: pages)
        open.get("/", use: { _, _ in WebResponse.redirect(to: WebRoutes.home) })
        let signIn = SignInPage(site: site, sessions: store, signIn: StaffSignIn(hub: hub, sessions: store, staff: store))
        signIn.addOpen(to: open)
        StaticFiles(site: site).add(to: open)

        let signedIn = router.group().add(middleware: pages).add(middleware: access(.signedIn()))
        signIn.addSignedIn(to: signedIn)
        EventsPage(site: site, events: store, guessed: hub.lockout.guessed).add(to: signedIn)

        // Check-in staff too: the live page is the one event page they have.
        let event = router.group("/events/:event").add(middleware: pages).add(middleware: access(.event()))
        LivePage(site: site, snapshots: liveSnapshots).add(to: event)
        LiveStream(site: site, feed: hub.feed, sessions: store, events: store, snapshots: liveSnapshots, quota: liveStreams).add(to: event)
        // Organizers and support: the event's stations (the API's list, as a page).
        let support = router.group("/events/:event").add(middleware: pages).add(middleware: access(.event(.support)))
        StationsPage(site: site, stations: store).add(to: support)
        // Organizers and support: what needs a look, and the actions on it (marks, merges, undos).
        ReviewPage(site: site, review: store).add(to: support)
        ExportFiles(site: site, reports: store).add(to: support)
        // Organizers and support: the guest lookup, each guest's page and its changes.
        GuestsPage(site: site, guests: store).add(to: support)
        GuestPage(site: site, guests: store).add(to: support)
        // Organizers: events, their access types and rosters, and the staff accounts.
        let organizer = router.group().add(middleware: pages).add(middleware: access(.signedIn(.organizer)))
        EventEditPage(site: site, events: store).addCreate(to: organizer)
        let passwords = PasswordConfirmation(staff: store, hashing: hub.hashing, lockout: hub.lockout, logger: hub.logger)
        StaffPage(site: site, staff: store, sessions: store, events: store, hashing: hub.hashing, passwords: passwords).add(to: organizer)
        let organizerEvent = router.group("/events/:event").add(middleware: pages)
            .add(middleware: access(.event(.organizer), multipartBytes: RosterUploadPage.maximumBodyBytes))
        EventEditPage(site: site, events: store).addEdit(to: organizerEvent)
        RosterUploadPage(site: site, events: store).add(to: organizerEvent)
    }

    /// The access layer for a group of pages (``WebAccessMiddleware``).
    func access(_ access: RouteAccess, multipartBytes: Int = 0) -> WebAccessMiddleware {
        WebAccessMiddleware(site: site, sessions: hub.store, events: hub.store, limiter: hub.limiter, access: access, multipartBytes: multipartBytes)
    }
}
