/// A check-in list's verdict as the station answers it: one of its decisions, or a proposed one.
public enum StationAnswer: Sendable, Hashable {
    case decision(Decision)
    case proposed(ProposedDecision)

    /// The exit status of `kiosk checkin` for it.
    public var exitCode: Int32 {
        switch self {
        case .decision(let decision): decision.kind.exitCode
        case .proposed(let proposed): proposed.kind.exitCode
        }
    }
}

extension ListVerdict {
    /// The station's answer: a canceled, blocked or revoked ticket is `revoked`, a product the
    /// list does not admit or another date of a series is `not_valid_here`, the validity window
    /// is `outside_window`, an entry the list allows no more is `already_checked_in` with the
    /// first movement, unpaid, unapproved and what only the source decides are themselves;
    /// ambiguous is a ``ProposedDecision``.
    public var stationAnswer: StationAnswer {
        switch self {
        case .admitted: return .decision(.admitted)
        case .refused(let refusal):
            switch refusal {
            case .unknownCode: return .decision(.unknownCode)
            case .revoked, .canceled, .blocked: return .decision(.revoked)
            case .outsideWindow(let from, let until): return .decision(.outsideWindow(validFrom: from, validUntil: until))
            case .productNotOnList(let product): return .decision(.notValidHere(accessType: product))
            case .otherDate: return .decision(.notValidHere(accessType: TicketRefusal.otherDateWords))
            case .alreadyCheckedIn(let first): return .decision(.alreadyCheckedIn(previous: first))
            case .unpaid(let admitAnyway): return .decision(.unpaid(admitAnyway: admitAnyway))
            case .unapproved: return .decision(.unapproved)
            case .ambiguous(let count): return .proposed(.ambiguous(count: count))
            case .needsOnline(let check): return .decision(.needsOnline(check))
            }
        }
    }
}
