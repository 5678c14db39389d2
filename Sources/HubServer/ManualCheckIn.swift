import CheckInCore
import HubAPI

/// A check-in an organizer makes from the dashboard's guest page: an upload like any station's,
/// decided by the same rules (``GuestRepository/manualCheckIn(event:_:uploader:now:audit:)``),
/// from a device id that names the dashboard and the person, so stations and the history show
/// "by Olga at Dashboard".
package enum ManualCheckIn {
    /// The station name recorded with the check-in.
    static let station = "Dashboard"

    /// `dashboard:<staff id>`: one device per person, so two organizers' clicks are two devices,
    /// as two doors would be.
    static func deviceID(staff: StaffInfo) -> String { "dashboard:" + staff.id }

    /// The entry to decide: the organizer looked the guest up, so its source is `search`, the
    /// source a station's name search records (the wire contract has no dashboard source).
    package static func upload(guestID: String, by staff: StaffInfo, at now: Timestamp) -> CheckInUpload {
        CheckInUpload(key: IdempotencyKey(deviceID: deviceID(staff: staff), guestID: guestID, scannedAt: now),
                      station: station, operatorName: staff.name, source: .search, direction: .entry)
    }

    /// The organizer action written with the check-in, whatever the answer.
    package static func action(event: String, by staff: StaffInfo, guestID: String, result: CheckInResult, at now: Timestamp) -> OrganizerAction {
        let detail = switch result.status {
        case .accepted: "admitted"
        case .duplicate: "duplicate of an admission moments before"
        case .rejected: "refused: " + result.decision.rawValue + (result.reason.map { " (\($0))" } ?? "")
        }
        return OrganizerAction(eventID: event, actor: staff, kind: .manualCheckIn, subject: guestID, detail: detail, at: now)
    }
}
