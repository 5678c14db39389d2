import CheckInCore
import HubAPI

/// Something a person did to an event or an account, from the dashboard or the command line:
/// the hub's log of organizer actions (``AuditRepository``), exported beside uploads and refusals.
///
/// Written in the same transaction as the change it describes (each store operation takes it as
/// `audit:`), so no change is ever unaudited.
public struct OrganizerAction: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case eventCreated = "event_created"
        case eventEdited = "event_edited"
        case accessTypeSaved = "access_type_saved"
        case rosterUploaded = "roster_uploaded"
        case guestRevoked = "guest_revoked"
        case guestRestored = "guest_restored"
        case manualCheckIn = "manual_check_in"
        case conflictReviewed = "conflict_reviewed"
        case walkInReviewed = "walk_in_reviewed"
        case walkInMerged = "walk_in_merged"
        case refusalReviewed = "refusal_reviewed"
        case admissionUndone = "admission_undone"
        case staffAdded = "staff_added"
        case staffAssigned = "staff_assigned"
        case staffUnassigned = "staff_unassigned"
        case staffDisabled = "staff_disabled"
        case staffEnabled = "staff_enabled"
        case passwordReset = "password_reset"
        case sessionRevoked = "session_revoked"
        case staffRemoved = "staff_removed"
    }

    /// The event it concerns; `nil` for an account's own changes (a password reset).
    public var eventID: String?
    /// Who did it, as the hub knows them (the session's staff member).
    public var actorID: String
    public var actorName: String
    public var kind: Kind
    /// What it was done to: a guest id, a check-in's key, an e-mail, a session id.
    public var subject: String
    /// In words, for a person reading the log ("revoked: ticket leaked on social media").
    public var detail: String
    public var at: Timestamp

    public init(eventID: String?, actor: StaffInfo, kind: Kind, subject: String, detail: String = "", at: Timestamp) {
        self.eventID = eventID
        self.actorID = actor.id
        self.actorName = actor.name
        self.kind = kind
        self.subject = subject
        self.detail = detail
        self.at = at
    }

    public init(eventID: String?, actorID: String, actorName: String, kind: Kind, subject: String, detail: String, at: Timestamp) {
        self.eventID = eventID
        self.actorID = actorID
        self.actorName = actorName
        self.kind = kind
        self.subject = subject
        self.detail = detail
        self.at = at
    }
}
