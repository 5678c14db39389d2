/// The decision rules for a presented code, shared by the station and the hub.
///
/// A pure function of its inputs: the caller looks up the guest, their access type and their
/// earlier admissions, and records whatever is decided.
public enum CheckInRules {
    /// One attempt to pass the door.
    public struct Attempt: Sendable, Hashable {
        public var deviceID: String
        public var at: Timestamp
        public var direction: Direction
        /// Access types admitted at this station; `nil` admits every type.
        public var admittedAccessTypes: Set<String>?

        public init(deviceID: String, at: Timestamp, direction: Direction = .entry, admittedAccessTypes: Set<String>? = nil) {
            self.deviceID = deviceID
            self.at = at
            self.direction = direction
            self.admittedAccessTypes = admittedAccessTypes
        }
    }

    /// Decides an attempt.
    /// - Parameters:
    ///   - attempt: who is scanning, when.
    ///   - guest: the guest holding the code, or `nil` when the code is unknown.
    ///   - accessType: the guest's access type, if known.
    ///   - admissions: the guest's earlier admissions (entries not undone), in any order.
    ///   - policy: the event's tolerance window.
    public static func decide(
        _ attempt: Attempt,
        guest: Guest?,
        accessType: AccessType?,
        admissions: [CheckIn],
        policy: EventPolicy = .standard
    ) -> Decision {
        guard let guest else { return .unknownCode }
        if guest.revoked { return .revoked }
        if let admitted = attempt.admittedAccessTypes, !admitted.contains(guest.accessTypeID) {
            return .notValidHere(accessType: accessType?.name ?? guest.accessTypeID)
        }
        if let accessType, !accessType.isValid(at: attempt.at) {
            return .outsideWindow(validFrom: accessType.validFrom, validUntil: accessType.validUntil)
        }
        if attempt.direction == .exit { return .admitted }

        let entries = admissions.filter { $0.direction == .entry }
        // Within the window of any earlier admission, this is that admission seen again.
        // `distance(to:)` is exact for any two scan times (a difference of client times once
        // overflowed here and trapped the hub).
        if let same = entries
            .filter({ policy.isWithinWindow($0.scannedAt, attempt.at) })
            .min(by: { $0.scannedAt < $1.scannedAt }) {
            return .duplicate(previous: same.summary)
        }
        guard let first = entries.min(by: { $0.scannedAt < $1.scannedAt }) else { return .admitted }
        if accessType?.reentry == true { return .admitted }
        return .alreadyCheckedIn(previous: first.summary)
    }
}
