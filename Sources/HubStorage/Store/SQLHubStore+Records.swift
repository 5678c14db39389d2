import CheckInCore
import HubAPI

/// The organizer log (``AuditRepository``), the exports (``ExportRepository``) and the change
/// probe (``ChangeSource``).
extension SQLHubStore {
    public func recordAction(_ action: OrganizerAction) async throws {
        try await database.write(changing: nil) { try await Self.record(action, on: $0) }
    }

    public func organizerActions(event: String) async throws -> [OrganizerAction] {
        try await database.rows("SELECT * FROM organizer_actions WHERE event_id = \(event) ORDER BY id") { try OrganizerAction(row: $0) }
    }

    public func accountActions() async throws -> [OrganizerAction] {
        try await database.rows("SELECT * FROM organizer_actions WHERE event_id IS NULL ORDER BY id") { try OrganizerAction(row: $0) }
    }

    public func attendance(event: String) async throws -> [AttendanceRecord] {
        try await database.rows(SQL(ExportSQL.attendance, binds: [.text(event)])) { try AttendanceRecord(row: $0) }
    }

    public func hubLog(event: String) async throws -> [HubLogEntry] {
        try await database.rows(SQL(ExportSQL.hubLog, binds: [.text(event)])) { try HubLogEntry(row: $0) }
    }

    public func reportChanges(to sink: any ChangeSink) async {
        await database.reportChanges(to: sink)
    }

    public func latestChange(event: String) async throws -> Int64 {
        try await database.rows(SQL(StatsSQL.latestChange, binds: [.text(event)])) { try $0.optionalInteger("latest") }.first.flatMap { $0 } ?? 0
    }
}
