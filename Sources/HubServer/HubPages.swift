import Hummingbird

/// Routes served beside the API, on the same router and behind the same connection limits: the
/// dashboard's pages (`HubDashboard`), added after the API's routes and its no-cache middleware.
public protocol HubPages: Sendable {
    func add(to router: Router<HubRequestContext>)
}
