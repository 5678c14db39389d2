/// Where the hub keeps everything, as one value: every repository, each operation written once
/// (``SQLHubStore`` over SQLite or PostgreSQL; ``MemoryHubStore`` for tests). Implementations
/// keep no state that correctness depends on: several hub processes may share one PostgreSQL
/// database.
///
/// The routes' controllers see only the repository they need (``EventRepository``,
/// ``StaffRepository``, ``SessionRepository``, ``SyncRepository``, ``ReportRepository``, ``StationRepository``).
public protocol HubStore: EventRepository, StaffRepository, SessionRepository, SyncRepository, ReportRepository, StationRepository,
    AuditRepository, ExportRepository, ReviewRepository, GuestRepository, ArrivalRepository, ChangeSource {
    /// `sqlite`, `postgres` or `memory`.
    var kind: String { get }

    /// Applies pending migrations (embedded in the binary); returns the names applied now.
    func migrate() async throws -> [String]
    /// Name of the last applied migration.
    func schemaVersion() async throws -> String
    func close() async
}
