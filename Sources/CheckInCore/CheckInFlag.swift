/// Something about a recorded movement that an organizer should look at. The decision stands:
/// a flagged movement is recorded and counted like any other.
///
/// On the wire (hub upload answers, `kiosk checkin --json`) it is the raw value, e.g.
/// `"flag": "exit_without_entry"`, absent when there is nothing to flag.
public enum CheckInFlag: String, Sendable, Hashable, Codable, CaseIterable {
    /// An exit by someone the records do not show inside: no entry before it, or their last
    /// movement was already an exit. The person did leave, so the exit is recorded (and "inside"
    /// stays right); a missed entry scan, a ticket passed on, or a door used the wrong way round
    /// is for the organizer to judge. Stations show it as "Goodbye — not checked in, recorded and
    /// flagged".
    case exitWithoutEntry = "exit_without_entry"
}
