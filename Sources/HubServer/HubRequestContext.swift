import CheckInCore
import HubAPI
import Hummingbird
import NIOCore

/// The request context of every hub route: what ``AccessMiddleware`` established about the
/// caller before any handler runs.
public struct HubRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in caller, on every route behind ``AccessMiddleware``.
    package var caller: AuthenticatedSession?
    /// The event of a `/v1/events/{event}/…` route, one the caller may see.
    package var event: EventSummary?

    /// The connection's peer (a proxy, behind one: see ``ClientAddress``), formatted only by the
    /// one route that asks (sign-in), not for every request.
    private let peer: SocketAddress?
    package var peerAddress: String? { peer?.ipAddress }
    /// Completed when the connection closes: a long answer (a live stream) ends with it.
    package let connectionClosed: EventLoopFuture<Void>

    public init(source: Source) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }

    /// The caller; a route registered without ``AccessMiddleware`` asking for it is a programming
    /// error, answered as "sign in first" rather than trusted.
    package func requireCaller() throws -> AuthenticatedSession {
        guard let caller else { throw HubProblem.unauthenticated }
        return caller
    }

    package func requireEvent() throws -> EventSummary {
        guard let event else { throw HubProblem.notFound }
        return event
    }
}
