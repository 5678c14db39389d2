/// An organizer's decision that two roster entries are one person: the walk-in ``guestID`` was
/// merged into the registration ``into``. Whoever holds the walk-in's check-ins or queued changes
/// moves them to the registration, then forgets the walk-in.
public struct GuestMerge: Sendable, Hashable, Codable {
    /// The walk-in that goes.
    public var guestID: String
    /// The registration that stays and takes the walk-in's check-ins.
    public var into: String

    public init(guestID: String, into: String) {
        self.guestID = guestID
        self.into = into
    }
}
