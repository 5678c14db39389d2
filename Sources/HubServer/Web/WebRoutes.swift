import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import Hummingbird
import Logging

/// The dashboard's route table, beside the API's (``HubRoutes/add(to:)``): which page answers
/// which path, behind which access (``RouteAccess``, applied by ``WebAccessMiddleware``).
///
/// Roles, as for the API: organizers see every event, support and check-in staff their
/// assigned ones; an event page of any other event is a 404.
extension HubRoutes {
    func addDashboard(to router: Router<HubRequestContext>) {
        let open = router.group()
        open.get("/", use: { _, _ in WebResponse.redirect(to: WebRoutes.home) })
        SignInPage(hub: self).addOpen(to: open)
        StaticFiles(hub: self).add(to: open)

        let signedIn = router.group().add(middleware: WebAccessMiddleware(hub: self, access: .signedIn()))
        SignInPage(hub: self).addSignedIn(to: signedIn)
        EventsPage(hub: self).add(to: signedIn)

        // Check-in staff too: the live page is the one event page they have.
        let event = router.group("/events/:event").add(middleware: WebAccessMiddleware(hub: self, access: .event()))
        LivePage(hub: self).add(to: event)
        LiveStream(hub: self).add(to: event)
        // Organizers and support: the event's stations (the API's list, as a page).
        let support = router.group("/events/:event").add(middleware: WebAccessMiddleware(hub: self, access: .event(.support)))
        StationsPage(hub: self).add(to: support)
        // Organizers and support: what needs a look, and the actions on it (marks, merges, undos).
        ReviewPage(hub: self).add(to: support)
        ExportFiles(hub: self).add(to: support)
        // Organizers and support: the guest lookup, each guest's page and its changes.
        GuestsPage(hub: self).add(to: support)
        GuestPage(hub: self).add(to: support)
        // Organizers: events, their access types and rosters, and the staff accounts.
        let organizer = router.group().add(middleware: WebAccessMiddleware(hub: self, access: .signedIn(.organizer)))
        EventEditPage(hub: self).addCreate(to: organizer)
        StaffPage(hub: self).add(to: organizer)
        let organizerEvent = router.group("/events/:event").add(middleware: WebAccessMiddleware(
            hub: self, access: .event(.organizer), multipartBytes: RosterUploadPage.maximumBodyBytes))
        EventEditPage(hub: self).addEdit(to: organizerEvent)
        RosterUploadPage(hub: self).add(to: organizerEvent)
    }
}

enum WebRoutes {
    static let home = "/events"
    static let signIn = "/signin"
    static let signOut = "/signout"

    /// Wraps a page handler: metrics (streams are counted, not timed), and errors as a page in
    /// words (503 for storage, logged), never a JSON problem or a 500.
    static func page(_ hub: HubRoutes, _ route: String, _ handler: @escaping HubRoutes.Handler) -> HubRoutes.Handler {
        { request, context in
            let start = ContinuousClock.now
            let response: Response
            do {
                response = try await handler(request, context)
            } catch {
                let problem = HubProblem.answering(error, route: route, logger: hub.logger)
                response = WebResponse.problem(problem.status, problem.document.title, problem.document.detail ?? "")
            }
            let elapsed = ContinuousClock.now - start
            hub.metrics.request(route: route, status: response.status.code,
                                seconds: route == "web-live-stream" ? nil : Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
            return response
        }
    }

    /// Whether cookies get `Secure` (``WebTransport``).
    static func isSecure(_ hub: HubRoutes, _ request: Request, _ context: HubRequestContext) -> Bool {
        WebTransport.isSecure(servesTLS: hub.configuration.tls != nil, peer: context.peerAddress,
                              forwardedProto: request.headers[.xForwardedProto], trustedProxies: hub.configuration.trustedProxies)
    }

    /// `value` for a query string.
    static func queryEscaped(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
