import HubAPI
import Hummingbird

/// The hub's route table: which controller answers which paths, behind which access
/// (``RouteAccess``, applied by ``AccessMiddleware``). Handlers check no token or role themselves.
extension HubRoutes {
    func add(to router: Router<HubRequestContext>) {
        // Every API answer, unknown paths and refusals included, is kept by no cache.
        router.add(middleware: APINoStore())
        // Open: liveness, and the two ways to get tokens.
        let open = router.group()
        OperationsController(hub: self).addHealth(to: open)
        AuthController(hub: self, sessions: store, staff: store).addOpen(to: open)

        // Any signed-in staff member.
        let signedIn = router.group().add(middleware: access(.signedIn()))
        AuthController(hub: self, sessions: store, staff: store).addSignedIn(to: signedIn)
        StationController(hub: self, sessions: store).add(to: signedIn)
        EventController(hub: self, events: store).add(to: signedIn)

        // Support and organizers, whatever the event.
        OperationsController(hub: self).addMetrics(to: router.group().add(middleware: access(.signedIn(.support))))

        // An event the caller may see: 404 for any other, existing or not.
        let event = router.group("/v1/events/:event").add(middleware: access(.event()))
        RosterController(hub: self).add(to: event)
        UploadController(hub: self, sync: store).add(to: event)
        ReportController(hub: self, reports: store).addStats(to: event)
        StationReportController(hub: self, stations: store).addReports(to: event)
        let review = router.group("/v1/events/:event").add(middleware: access(.event(.support)))
        ReportController(hub: self, reports: store).addReview(to: review)
        StationReportController(hub: self, stations: store).addList(to: review)
    }
}
