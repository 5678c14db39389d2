import CheckInCore
import HubAPI
import Hummingbird

/// The request context of every hub route: what ``AccessMiddleware`` established about the
/// caller before any handler runs.
public struct HubRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in caller, on every route behind ``AccessMiddleware``.
    var caller: AuthenticatedSession?
    /// The event of a `/v1/events/{event}/…` route, one the caller may see.
    var event: EventSummary?

    /// The connection's peer address (a proxy's, behind one: see ``ClientAddress``).
    let peerAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The caller; a route registered without ``AccessMiddleware`` asking for it is a programming
    /// error, answered as "sign in first" rather than trusted.
    func requireCaller() throws -> AuthenticatedSession {
        guard let caller else { throw HubProblem.unauthenticated }
        return caller
    }

    func requireEvent() throws -> EventSummary {
        guard let event else { throw HubProblem.notFound }
        return event
    }
}
