/// What the dashboard's exports read.
public protocol ExportRepository: Sendable {
    /// Every guest of the event not deleted, with their admissions, by name then code.
    func attendance(event: String) async throws -> [AttendanceRecord]
    /// Uploads, unknown-code attempts, undo requests and organizer actions, oldest first.
    func hubLog(event: String) async throws -> [HubLogEntry]
}
