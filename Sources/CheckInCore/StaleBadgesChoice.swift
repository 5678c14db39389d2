/// What the operator decides about badges that waited longer than the stale limit (the
/// printer was down; their attendees may have left): the same answer on the console and for
/// the print queue.
public enum StaleBadgesChoice: String, Sendable, Hashable, CaseIterable {
    /// Print them all now, in order.
    case printAll = "print_all"
    /// Print them on the second printer.
    case printOnOtherPrinter = "other_printer"
    /// Cancel them (staff hand badges out at the desk).
    case cancel
}
