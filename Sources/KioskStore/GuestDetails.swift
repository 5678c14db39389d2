import CheckInCore
import GRDB

/// A guest with the name of their access type and their current check-in state, as the
/// console and the command line show it.
public struct GuestDetails: Sendable, Hashable {
    public var guest: Guest
    public var accessTypeName: String
    /// The first admission not undone, if the guest is checked in.
    public var checkedIn: PriorCheckIn?

    public init(guest: Guest, accessTypeName: String, checkedIn: PriorCheckIn?) {
        self.guest = guest
        self.accessTypeName = accessTypeName
        self.checkedIn = checkedIn
    }

    /// A guest's details as stored now.
    static func fetch(_ db: Database, guest: Guest) throws -> GuestDetails {
        let first = try CheckInRecord.fetchAdmissions(db, guestID: guest.id).first { $0.direction == .entry }
        return GuestDetails(guest: guest, accessTypeName: try AccessTypeRecord.name(db, id: guest.accessTypeID), checkedIn: first?.summary)
    }
}
