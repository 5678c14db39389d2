import HubAPI

/// What organizers read about an event.
public protocol ReportRepository: Sendable {
    func stats(event: String) async throws -> EventStats
    func conflicts(event: String) async throws -> [Conflict]
    /// Walk-ins flagged for an organizer, oldest first.
    func walkInReviews(event: String) async throws -> [WalkInReview]
    /// Flagged movements not undone (exits by someone not inside), in recording order.
    func flaggedExits(event: String) async throws -> [FlaggedExit]
    /// The newest `limit` accepted movements not undone, newest first (``RecentCheckInsSQL``).
    func recentCheckIns(event: String, limit: Int) async throws -> [RecentCheckIn]
}
