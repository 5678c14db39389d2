import CheckInCore
import HubAPI

/// The hub's decision for an upload batch: a pure function of the batch and what the database
/// holds, shared by both stores so SQLite and PostgreSQL decide identically.
///
/// The store calls it while it holds the batch's guests exclusively (a SQLite write transaction,
/// PostgreSQL advisory guest locks), so `known` and `movements` cannot change underneath.
public enum CheckInIngest {
    /// A check-in to insert, with the answer it got.
    public struct Row: Sendable {
        public var upload: CheckInUpload
        public var result: CheckInResult
    }

    public struct Decided: Sendable {
        /// One answer per item, in batch order.
        public var results: [CheckInResult]
        /// Final answers, recorded under their key (`check_ins`): replays get them back.
        public var rows: [Row]
        /// Answers that are not final (`unknown_code`: the station's roster, or its ids, may be
        /// behind): kept for the audit only (`check_in_attempts`), so the key is decided afresh
        /// next time instead of being refused for good.
        public var attempts: [Row]
    }

    /// - Parameters:
    ///   - items: the batch, in upload order.
    ///   - known: answers already recorded for keys of this batch (replays).
    ///   - guests: the batch's guests (missing: unknown code).
    ///   - accessTypes: the event's access types.
    ///   - movements: accepted entries and exits not undone, per guest id. Those whose scan time
    ///     is outside ``CheckInCore/PlausibleTime`` (rows stored before the hub refused such
    ///     times) are ignored: roster pages never carry them, so the stations do not know them either.
    ///   - now: the hub's clock.
    public static func decide(
        _ items: [CheckInUpload], policy: EventPolicy, known: [IdempotencyKey: CheckInResult],
        guests: [String: Guest], accessTypes: [String: AccessType], movements: [String: [CheckIn]], now: Timestamp
    ) -> Decided {
        var known = known
        var movements = movements.mapValues { $0.filter { PlausibleTime.contains($0.scannedAt, now: now) } }
        var decided = Decided(results: [], rows: [], attempts: [])
        decided.results.reserveCapacity(items.count)
        for item in items {
            if let answer = known[item.key] {
                decided.results.append(answer)
                continue
            }
            let guest = guests[item.key.guestID]
            let ruling = CheckInRules.judge(
                CheckInRules.Attempt(deviceID: item.key.deviceID, at: item.key.scannedAt, direction: item.direction),
                guest: guest, accessType: guest.flatMap { accessTypes[$0.accessTypeID] },
                movements: movements[item.key.guestID] ?? [], policy: policy)
            var result = Self.result(for: item.key, ruling.decision)
            result.flag = ruling.flag
            decided.results.append(result)
            if ruling.decision == .unknownCode {
                decided.attempts.append(Row(upload: item, result: result))
                continue
            }
            if result.status == .accepted {
                movements[item.key.guestID, default: []].append(item)
            }
            known[item.key] = result
            decided.rows.append(Row(upload: item, result: result))
        }
        return decided
    }

    public static func result(for key: IdempotencyKey, _ decision: Decision) -> CheckInResult {
        let previous = decision.previous
        switch decision {
        case .admitted:
            return CheckInResult(key: key, status: .accepted, decision: .admitted)
        case .duplicate:
            return CheckInResult(key: key, status: .duplicate, decision: .duplicate, previous: previous)
        case .alreadyCheckedIn:
            return CheckInResult(key: key, status: .rejected, decision: .alreadyCheckedIn, reason: "already checked in", previous: previous)
        case .unknownCode:
            return CheckInResult(key: key, status: .rejected, decision: .unknownCode, reason: "no such guest on this event's roster")
        case .notValidHere(let type):
            return CheckInResult(key: key, status: .rejected, decision: .notValidHere, reason: "access type \(type) is not valid here")
        case .outsideWindow:
            return CheckInResult(key: key, status: .rejected, decision: .outsideWindow, reason: "ticket not valid at this time")
        case .revoked:
            return CheckInResult(key: key, status: .rejected, decision: .revoked, reason: "ticket revoked")
        case .unpaid:
            return CheckInResult(key: key, status: .rejected, decision: .unpaid, reason: "the order is not paid")
        case .unapproved:
            return CheckInResult(key: key, status: .rejected, decision: .unapproved, reason: "the order awaits the organizer's approval")
        case .needsOnline:
            // The hub asks no ticket shop: its rules never say this.
            return CheckInResult(key: key, status: .rejected, decision: .needsOnline, reason: "only the ticket shop decides this entry")
        case .listRules:
            return CheckInResult(key: key, status: .rejected, decision: .listRules, reason: "the check-in list's rules refused it")
        case .questions:
            // The hub asks no questions at the door yet: its rules never say this.
            return CheckInResult(key: key, status: .rejected, decision: .questions, reason: "the ticket's questions at the door are not answered")
        }
    }
}
