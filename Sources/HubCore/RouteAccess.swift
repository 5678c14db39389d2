import CheckInCore
import HubAPI

/// What a group of routes requires of its caller, and the one decision that applies it.
///
/// Order matters and is the same everywhere: no valid token → 401; an event the caller may not
/// see (``EventAccess``), or that does not exist → 404, so a guess learns nothing; a role below the
/// route's → 403.
public struct RouteAccess: Sendable, Hashable {
    public var minimumRole: StaffRole
    /// Whether the path names an event (`:event`) the caller must be able to see.
    public var eventScoped: Bool

    public static func signedIn(_ role: StaffRole = .staff) -> RouteAccess { RouteAccess(minimumRole: role, eventScoped: false) }
    public static func event(_ role: StaffRole = .staff) -> RouteAccess { RouteAccess(minimumRole: role, eventScoped: true) }

    public enum Verdict: Sendable, Hashable {
        case allow
        case unauthenticated
        case notFound
        case forbidden(StaffRole)
    }

    /// - Parameters:
    ///   - caller: the role of the session behind the token, `nil` without a valid one.
    ///   - eventVisible: for event routes, whether the event exists and the caller may see it.
    public func decide(caller: StaffRole?, eventVisible: Bool) -> Verdict {
        guard let caller else { return .unauthenticated }
        if eventScoped, !eventVisible { return .notFound }
        return caller >= minimumRole ? .allow : .forbidden(minimumRole)
    }
}
