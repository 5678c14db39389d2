import CheckInCore
import Foundation
import GRDB

/// A code presented at the station, by camera, scanner, keyboard or search.
public struct CheckInRequest: Sendable {
    public var rawCode: String
    public var source: CheckInSource
    public var operatorName: String?
    public var station: String?
    public var at: Timestamp
    public var direction: Direction
    /// A badge for an admission, as the policy says, committed with the check-in.
    public var badge: BadgeRequest?
    /// Staff answered "admit anyway?" for an unpaid ticket the shop leaves to the door.
    public var admitUnpaid: Bool
    /// The ticket shop's own word on this scan, when it was asked first (``ShopAnswer``).
    public var shopAnswer: ShopAnswer?
    /// The check-in list's rules on this entry, evaluated by the door (``CheckInCore/ListRuleEvaluator``).
    public var listRules: ListRulesVerdict?
    /// The ticket's questions at the door still unanswered, as the door found them (pretix's
    /// "ask during check-in"); asked before an entry is admitted.
    public var questions: [DoorQuestion]
    /// Answers given to them, as typed (question id → answer; ``CheckInCore/DoorQuestion/answer(typed:)``).
    public var answers: [String: String]

    public init(rawCode: String, source: CheckInSource, operatorName: String? = nil, station: String? = nil,
                at: Timestamp = .now(), direction: Direction = .entry, badge: BadgeRequest? = nil, admitUnpaid: Bool = false,
                shopAnswer: ShopAnswer? = nil, answers: [String: String] = [:]) {
        self.questions = []
        self.answers = answers
        self.shopAnswer = shopAnswer
        self.badge = badge
        self.admitUnpaid = admitUnpaid
        self.rawCode = rawCode
        self.source = source
        self.operatorName = operatorName
        self.station = station
        self.at = at
        self.direction = direction
    }
}

/// The decision for a presented code and what was recorded.
public struct CheckInResult: Sendable {
    public var decision: Decision
    public var guest: GuestDetails?
    /// The check-in recorded by this call (or by an earlier call with the same key), when admitted.
    public var recorded: CheckIn?
    /// The same idempotency key had already been recorded: nothing new was written.
    public var replayed: Bool
    /// The badge job written in the same transaction, when the request asked and the policy agreed.
    public var badgeJob: PrintJobRecord?
    /// What the organizer should look at: an exit by someone this station's records do not show
    /// inside is recorded and flagged ``CheckInFlag/exitWithoutEntry``.
    public var flag: CheckInFlag?
    /// A badge was asked for but not printed: the ticket carries no name yet (a signed ticket
    /// admitted before its order arrived). Staff print it at the desk (F5) once the name is known.
    public var badgeWithheld = false

    public init(decision: Decision, guest: GuestDetails?, recorded: CheckIn?, replayed: Bool, badgeJob: PrintJobRecord?, flag: CheckInFlag? = nil) {
        self.decision = decision
        self.guest = guest
        self.recorded = recorded
        self.replayed = replayed
        self.badgeJob = badgeJob
        self.flag = flag
    }
}

extension KioskDatabase {
    /// The door: check-ins, walk-ins and undos, each decided and recorded in one transaction.
    public var desk: CheckInStore { CheckInStore(database: self) }
}

/// Check-ins, walk-ins and undos: what the door records about guests.
public struct CheckInStore: StoreRepository {
    let database: KioskDatabase

    /// Decides a presented code and records the outcome durably in one transaction: the
    /// check-in, its outbox entry for the hub, and the audit-log line. When this returns, the
    /// check-in survives a crash or a power cut.
    public func checkIn(_ request: CheckInRequest) async throws(StoreError) -> CheckInResult {
        try requireUsable()
        let deviceID = database.deviceID
        let (station, operatorName) = try database.identity(station: request.station, operatorName: request.operatorName)
        return try await wrap {
            try await writer.write { db in
                try Self.checkIn(db, request: request, deviceID: deviceID, station: station, operatorName: operatorName)
            }
        }
    }

    static func checkIn(_ db: Database, request: CheckInRequest, deviceID: String, station: String, operatorName: String) throws -> CheckInResult {
        let policy = try KioskDatabase.policy(db)
        let code = TicketCode(normalizing: request.rawCode, caseInsensitive: policy.caseInsensitiveCodes)
        let guest = try code.flatMap { try OpenedGuestRecord.fetchGuest(db, code: $0) }
        let accessType = try guest.flatMap { try AccessTypeRecord.fetchAccessType(db, id: $0.accessTypeID) }

        func audit(_ decision: Decision) throws {
            try AuditEntry(at: request.at, deviceID: deviceID, station: station, operatorName: operatorName, source: .station(request.source),
                           action: .attempt, code: code?.value ?? String(Sanitized.text(request.rawCode).prefix(64)), guestID: guest?.id,
                           decision: decision.kind, detail: request.direction.rawValue).insert(db)
            // A destination that lists failed check-ins (pretix) learns of each refusal, in order
            // with the admissions, from the same transaction (one it made itself it has logged).
            if case .refused? = request.shopAnswer { return }
            // Questions to answer are no refusal: the same scan comes again with the answers.
            if case .questions = decision { return }
            guard !decision.letsGuestIn, try KioskDatabase.currentDestination(db)?.isPretix == true else { return }
            try KioskDatabase.enqueue(db, .refusal(RefusedScan(
                deviceID: deviceID, scannedAt: request.at, code: request.rawCode, guestID: guest?.id, accessTypeID: guest?.accessTypeID,
                decision: decision.kind, ticketRefusal: guest?.facts.refusal, direction: request.direction)))
        }

        guard let guest else {
            // The shop may admit a ticket sold since the last download (it recorded the check-in)
            // or refuse it in its words; a station that holds no orders cannot check it without the shop.
            let decision: Decision = switch request.shopAnswer {
            case .admitted?: .admitted
            case .refused(let refusal)?: refusal
            case .unreachable(.ticket)?: .needsOnline(.ticket)
            case .unreachable?, nil: .unknownCode
            }
            try audit(decision)
            return CheckInResult(decision: decision, guest: nil, recorded: nil, replayed: false, badgeJob: nil)
        }
        let key = IdempotencyKey(deviceID: deviceID, guestID: guest.id, scannedAt: request.at)
        if let existing = try CheckInRecord.fetchOne(db, sql: "SELECT \(CheckInRecord.columns) FROM check_ins WHERE idempotency_key = ?", arguments: [key.description]) {
            return CheckInResult(decision: .admitted, guest: try GuestDetails.fetch(db, guest: guest),
                                 recorded: existing.checkIn, replayed: true, badgeJob: nil)
        }

        let answers = request.direction == .entry && !request.questions.isEmpty
            ? QuestionsAtTheDoor.check(request.questions, typed: request.answers) : nil
        let ruling = CheckInRules.judge(
            .init(deviceID: deviceID, at: request.at, direction: request.direction, admittedAccessTypes: try KioskDatabase.admittedAccessTypes(db),
                  admitUnpaid: request.admitUnpaid, shopAnswer: request.shopAnswer, listRules: request.listRules, answers: answers),
            guest: guest, accessType: accessType, movements: try CheckInRecord.fetchAdmissions(db, guestID: guest.id), policy: policy)
        let decision = ruling.decision
        try audit(decision)

        var recorded: CheckIn?
        var badgeJob: PrintJobRecord?
        var withheld = false
        if decision == .admitted {
            var given: [String: String]?
            if case .complete(let stored)? = answers, !stored.isEmpty { given = stored }
            let checkIn = CheckIn(key: key, station: station, operatorName: operatorName, source: request.source, direction: request.direction,
                                  answers: given)
            try insert(db, checkIn: checkIn)
            recorded = checkIn
            // Answered here: the station's copy no longer asks them (an optional question left
            // empty is asked again, as pretix asks it), until the next download says otherwise.
            let answered = (given ?? [:]).filter { !$0.value.isEmpty }.keys
            if !guest.facts.questionsToAsk.isEmpty, !answered.isEmpty {
                try db.execute(sql: "UPDATE guests SET sealed = kiosk_guest_answered(sealed, ?) WHERE id = ?",
                               arguments: [answered.sorted().joined(separator: ","), guest.id])
            }
            if request.badge != nil, request.direction == .entry, guest.name.trimmedWhitespace().isEmpty {
                // No label with an empty name line: the badge waits for the name (a reprint).
                withheld = true
            } else if let badge = request.badge, request.direction == .entry {
                badgeJob = try PrintJobStore.enqueueBadge(db, guestID: guest.id, code: guest.code.value, walkIn: request.source == .walkIn,
                                            policy: badge.policy, queue: badge.queue, at: request.at,
                                            printedElsewhere: guest.facts.badgePrintedElsewhere != nil)
            }
        }
        var result = CheckInResult(decision: decision, guest: try GuestDetails.fetch(db, guest: guest), recorded: recorded, replayed: false,
                                   badgeJob: badgeJob, flag: ruling.flag)
        result.badgeWithheld = withheld
        return result
    }

    /// Writes a local check-in and its outbox entry (same transaction as the caller's).
    static func insert(_ db: Database, checkIn: CheckIn) throws {
        try db.execute(sql: """
            INSERT INTO check_ins (idempotency_key, guest_id, device_id, station, operator, source, direction, scanned_at, origin)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'local')
            """, arguments: [checkIn.key.description, checkIn.guestID, checkIn.deviceID, checkIn.station,
                             checkIn.operatorName, checkIn.source.rawValue, checkIn.direction.rawValue, checkIn.scannedAt.milliseconds])
        try KioskDatabase.enqueue(db, .checkIn(checkIn))
    }
}
