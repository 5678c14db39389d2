/// The decision rules for a presented code, shared by the station and the hub.
///
/// A pure function of its inputs: the caller looks up the guest, their access type and their
/// earlier movements, and records whatever is decided.
public enum CheckInRules {
    /// One attempt to pass the door.
    public struct Attempt: Sendable, Hashable {
        public var deviceID: String
        public var at: Timestamp
        public var direction: Direction
        /// Access types admitted at this station; `nil` admits every type. Entries only: nobody
        /// is kept from leaving.
        public var admittedAccessTypes: Set<String>?
        /// Staff answered "admit anyway?" for a ticket whose order is not paid, where the ticket
        /// shop lets the door decide (pretix: a list that includes pending orders).
        public var admitUnpaid: Bool
        /// The ticket shop's own word on this scan, when it was asked (``ShopAnswer``).
        public var shopAnswer: ShopAnswer?
        /// The check-in list's rules on this entry, when the list has rules the door evaluated
        /// (``ListRuleEvaluator``): a refusal refuses an entry the door would admit.
        public var listRules: ListRulesVerdict?
        /// The answers to the ticket's questions at the door, where it has questions still
        /// unanswered (``QuestionsAtTheDoor/check(_:typed:)``): an entry the door would admit is
        /// ``Decision/questions(_:)`` until they are complete.
        public var answers: DoorAnswers?

        public init(deviceID: String, at: Timestamp, direction: Direction = .entry, admittedAccessTypes: Set<String>? = nil,
                    admitUnpaid: Bool = false, shopAnswer: ShopAnswer? = nil, listRules: ListRulesVerdict? = nil, answers: DoorAnswers? = nil) {
            self.answers = answers
            self.shopAnswer = shopAnswer
            self.listRules = listRules
            self.deviceID = deviceID
            self.at = at
            self.direction = direction
            self.admittedAccessTypes = admittedAccessTypes
            self.admitUnpaid = admitUnpaid
        }
    }

    /// A decision and what an organizer should know about it.
    ///
    /// The flag rides beside ``Decision`` instead of being a case of it: an exit by someone not
    /// inside is still recorded and lets them pass (``Decision/admitted``), so every existing
    /// consumer of decisions keeps its meaning, and only those that show or list flags look at
    /// ``flag``.
    public struct Ruling: Sendable, Hashable {
        public var decision: Decision
        /// Set when the movement is recorded but should be looked at (only with ``Decision/admitted``).
        public var flag: CheckInFlag?

        public init(_ decision: Decision, flag: CheckInFlag? = nil) {
            self.decision = decision
            self.flag = flag
        }
    }

    /// Decides an attempt: ``judge(_:guest:accessType:movements:policy:)`` without the flag.
    /// - Parameters:
    ///   - admissions: the guest's earlier movements (entries and exits) not undone, in any
    ///     order. Callers that pass entries only get the entry rules right and never see an exit
    ///     refused.
    public static func decide(
        _ attempt: Attempt,
        guest: Guest?,
        accessType: AccessType?,
        admissions: [CheckIn],
        policy: EventPolicy = .standard
    ) -> Decision {
        judge(attempt, guest: guest, accessType: accessType, movements: admissions, policy: policy).decision
    }

    /// Decides an attempt and flags what an organizer should see.
    ///
    /// - Entries: an unknown code, a revoked ticket, an access type not admitted here or outside
    ///   its validity are refused. An entry within the tolerance window of an earlier entry of
    ///   the same stay (no exit between them) is that admission seen again: `duplicate`. Beyond
    ///   it, or after an exit, a single-entry ticket is `already_checked_in` (naming the first
    ///   admission) and a re-entry ticket is admitted again; so is a single-entry ticket that
    ///   admits entry after exit, when the guest's latest movement was an exit.
    ///   A ticket not paid yet, where the shop leaves it to the door (``TicketFacts/refusal``
    ///   `unpaid` on a guest who is not revoked), is `unpaid` with "admit anyway?" until staff say
    ///   so (``Attempt/admitUnpaid``).
    ///   A ticket's own window (``TicketFacts``) is checked like its access type's, and a check-in
    ///   the ticketing system made before the import counts as the first admission.
    /// - Exits: refused only for an unknown code or a revoked ticket (a ticket's validity or the
    ///   station's access types never keep anyone in). Otherwise recorded (``Decision/admitted``);
    ///   flagged ``CheckInFlag/exitWithoutEntry`` when the guest is not inside at the exit's scan
    ///   time: no movement before it, or the latest one was an exit.
    ///
    /// - An entry the door would admit, of a ticket with questions at the door not yet answered
    ///   (``Attempt/answers``), is ``Decision/questions(_:)``: recorded once they are.
    /// - The ticket shop's word (``Attempt/shopAnswer``), when it was asked, is the decision for a
    ///   ticket the station knows: it sees every door's check-ins and its own rules.
    ///
    /// Movements are ordered by scan time, an entry before an exit of the same millisecond (the
    /// hub's `inside` count folds them the same way).
    /// - Parameters:
    ///   - attempt: who is scanning, when, which way.
    ///   - guest: the guest holding the code, or `nil` when the code is unknown.
    ///   - accessType: the guest's access type, if known.
    ///   - movements: the guest's earlier movements (entries and exits) not undone, in any order.
    ///   - policy: the event's tolerance window.
    public static func judge(
        _ attempt: Attempt,
        guest: Guest?,
        accessType: AccessType?,
        movements: [CheckIn],
        policy: EventPolicy = .standard
    ) -> Ruling {
        switch attempt.shopAnswer {
        case .admitted?:
            // Unknown here (an order placed since the last download): admitted, nothing to record.
            guard guest != nil else { return Ruling(.admitted) }
            return attempt.direction == .exit ? recordedExit(attempt, movements: movements) : Ruling(.admitted)
        case .refused(.questions(let asked))?:
            // The shop asks before it looks at earlier entries: what the door refuses itself
            // (already in) is not asked about.
            let ruling = judgeHere(attempt, guest: guest, accessType: accessType, movements: movements, policy: policy)
            return guest == nil || ruling.decision == .admitted ? Ruling(.questions(asked)) : ruling
        case .refused(let decision)?:
            return Ruling(decision)
        case .unreachable(let check)?:
            // What the station refuses itself stays refused; an entry it would admit waits for the shop.
            let ruling = judgeHere(attempt, guest: guest, accessType: accessType, movements: movements, policy: policy)
            return attempt.direction == .entry && ruling.decision == .admitted ? Ruling(.needsOnline(check)) : ruling
        case nil:
            let ruling = judgeHere(attempt, guest: guest, accessType: accessType, movements: movements, policy: policy)
            // Questions come last: nobody is asked for a waiver and then refused.
            if attempt.direction == .entry, ruling.decision == .admitted, case .needed(let asked)? = attempt.answers {
                return Ruling(.questions(asked))
            }
            return ruling
        }
    }

    /// An exit, recorded; flagged when the guest is not inside at its scan time.
    static func recordedExit(_ attempt: Attempt, movements: [CheckIn]) -> Ruling {
        let last = movements.filter { $0.scannedAt <= attempt.at }.max(by: precedes)
        return Ruling(.admitted, flag: last?.direction == .entry ? nil : .exitWithoutEntry)
    }

    /// The station's own rules, on what it knows.
    static func judgeHere(_ attempt: Attempt, guest: Guest?, accessType: AccessType?, movements: [CheckIn], policy: EventPolicy) -> Ruling {
        guard let guest else { return Ruling(.unknownCode) }
        if guest.revoked {
            // The ticket shop's reason, where it gave one that is not a revocation.
            switch guest.facts.refusal {
            case .unpaid?: return Ruling(.unpaid(admitAnyway: false))
            case .unapproved?: return Ruling(.unapproved)
            case .product?: return Ruling(.notValidHere(accessType: accessType?.name ?? guest.accessTypeID))
            case .otherDate?: return Ruling(.notValidHere(accessType: TicketRefusal.otherDateWords))
            default: return Ruling(.revoked)
            }
        }
        if attempt.direction == .exit { return recordedExit(attempt, movements: movements) }
        if let admitted = attempt.admittedAccessTypes, !admitted.contains(guest.accessTypeID) {
            return Ruling(.notValidHere(accessType: accessType?.name ?? guest.accessTypeID))
        }
        if let accessType, !accessType.isValid(at: attempt.at) {
            return Ruling(.outsideWindow(validFrom: accessType.validFrom, validUntil: accessType.validUntil))
        }
        if !guest.facts.isValid(at: attempt.at) {
            return Ruling(.outsideWindow(validFrom: guest.facts.validFrom, validUntil: guest.facts.validUntil))
        }
        // Not paid, where the ticket shop leaves it to the door (the guest is not revoked): staff
        // decide, once they are asked.
        if guest.facts.refusal == .unpaid && !attempt.admitUnpaid { return Ruling(.unpaid(admitAnyway: true)) }
        var entries = movements.filter { $0.direction == .entry }
        if let before = guest.facts.checkedInBefore { entries.append(Self.checkInBeforeImport(guest: guest, at: before)) }
        let exits = movements.filter { $0.direction == .exit }.map(\.scannedAt)
        // Within the window of an earlier admission, this is that admission seen again (two doors
        // scanning one guest) — unless the guest left in between: then it is a new entry, and
        // calling it a duplicate would leave them counted outside. `distance(to:)` is exact for
        // any two scan times (a difference of client times once overflowed here and trapped the hub).
        if let same = entries
            .filter({ policy.isWithinWindow($0.scannedAt, attempt.at) && !exits.contains(where: between($0.scannedAt, attempt.at)) })
            .min(by: { $0.scannedAt < $1.scannedAt }) {
            return Ruling(.duplicate(previous: same.summary))
        }
        // The list's rules, where the door evaluated them (a scan seen again above is no new entry).
        switch attempt.listRules {
        case .refused(let explanation)?: return Ruling(.listRules(explanation: explanation))
        case .notUnderstood(let reason)?:
            return Ruling(.listRules(explanation: "This station cannot evaluate the list's rules (\(reason)): see staff"))
        case .passes?, nil: break
        }
        guard let first = entries.min(by: { $0.scannedAt < $1.scannedAt }) else { return Ruling(.admitted) }
        if accessType?.reentry == true { return Ruling(.admitted) }
        if accessType?.entryAfterExit == true, let last = movements.filter({ $0.scannedAt <= attempt.at }).max(by: precedes),
           last.direction == .exit, last.scannedAt >= first.scannedAt {
            return Ruling(.admitted)
        }
        return Ruling(.alreadyCheckedIn(previous: first.summary))
    }

    /// The ticketing system's own check-in, as the earlier admission it is: "already checked in
    /// before import at 08:12".
    static func checkInBeforeImport(guest: Guest, at: Timestamp) -> CheckIn {
        CheckIn(key: IdempotencyKey(deviceID: PriorCheckIn.beforeImportDevice, guestID: guest.id, scannedAt: at),
                station: "before import", operatorName: "the ticketing system", source: .typed)
    }

    /// Movement order: scan time, then an entry before an exit of the same millisecond.
    static func precedes(_ a: CheckIn, _ b: CheckIn) -> Bool {
        a.scannedAt != b.scannedAt ? a.scannedAt < b.scannedAt : (a.direction == .entry && b.direction == .exit)
    }

    /// Whether an instant lies between two others (inclusive), in either order.
    static func between(_ a: Timestamp, _ b: Timestamp) -> (Timestamp) -> Bool {
        let (low, high) = a < b ? (a, b) : (b, a)
        return { low <= $0 && $0 <= high }
    }
}
