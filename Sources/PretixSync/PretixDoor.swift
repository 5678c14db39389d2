import CheckInCore
import KioskStore
import Logging
import PretixClient
import SignedTickets
import Synchronization

/// Finds the questions the door asks before an entry, and asks pretix for its word on a scan
/// before the station decides, where pretix's word is needed (a list with rules the station
/// cannot evaluate, a station that holds no orders) or wanted (a station set to online first):
/// `checkinrpc/redeem` with the scan's own nonce, the one its upload carries later, so pretix
/// records the scan once whichever way it arrives, and with the answers to its questions.
///
/// An online-first scan waits at most the link's budget (1 s unless set): when pretix has not
/// answered by then, the station decides it on its copy, as pretix's own devices do (the
/// accepted risk: pretix admitted it as the answer was lost, the station refuses it). A scan only
/// pretix decides waits up to ``PretixLink/onlineOnlyBudget`` (at least 5 s: the other answer is a
/// refusal), then is refused as ``Decision/needsOnline(_:)``, and nothing is recorded.
public final class PretixDoor: Sendable {
    public let link: PretixLink
    let database: KioskDatabase
    let logger: Logger
    private let needs: Mutex<PretixOnlineNeeds>
    /// The list's rules, evaluated here for the entries the station decides itself.
    private let rules: Mutex<PretixListRules?>
    /// The event's signed-ticket keys and withdrawn secrets, `nil` for an event without signed tickets.
    private let signed: Mutex<SignedState?>
    /// The questions asked at the door, by pretix product.
    private let questions: Mutex<[Int: [DoorQuestion]]>

    struct SignedState: Sendable {
        var tickets: PretixSignedTickets
        var keys: [TicketSigningKey]
    }
    /// One client for every online-first scan, bounded by the budget, and one for the scans only
    /// pretix decides; `nil` when the link's address is not one (the sync says why): no scan can
    /// ask pretix then.
    private let client: PretixClient?
    private let patientClient: PretixClient?

    public init(database: KioskDatabase, link: PretixLink, logger: Logger = Logger(label: "kiosk.pretix")) {
        self.database = database
        self.link = link
        self.logger = logger
        needs = Mutex(link.onlineNeeds ?? PretixOnlineNeeds())
        rules = Mutex(link.listRules)
        questions = Mutex(link.doorQuestions ?? [:])
        signed = Mutex(((try? PretixLinkFile<PretixSignedTickets>(database: database).load()) ?? nil).map(Self.signedTickets))
        client = try? link.client(timeout: link.onlineBudget)
        patientClient = try? link.client(timeout: link.onlineOnlyBudget)
    }

    /// The door of the station's pretix list, `nil` for a station that is no pretix device (or
    /// whose link cannot be read: the station decides alone, and `kiosk status` says why).
    public static func linked(_ database: KioskDatabase) -> PretixDoor? {
        (try? PretixLinkFile<PretixLink>(database: database).load())?.map { PretixDoor(database: database, link: $0) }
    }

    /// What only pretix decides at the list now (read again from pretix at a pull).
    public var onlineNeeds: PretixOnlineNeeds { needs.withLock { $0 } }

    func update(_ next: PretixOnlineNeeds) { needs.withLock { $0 = next } }

    func updateRules(_ next: PretixListRules?) { rules.withLock { $0 = next } }

    func update(_ next: [Int: [DoorQuestion]]) { questions.withLock { $0 = next } }

    func update(_ next: PretixSignedTickets?) { signed.withLock { $0 = next.map(Self.signedTickets) } }

    static func signedTickets(_ tickets: PretixSignedTickets) -> SignedState {
        SignedState(tickets: tickets, keys: tickets.signingKeys)
    }

    /// The request with pretix's word on it, when pretix is to be asked; as it came otherwise.
    /// A signed ticket pretix sent no order for is first kept as the list's guest (``vouch(for:)``).
    public func asked(_ request: CheckInRequest) async -> CheckInRequest {
        let scanned = ScannedGuest(database: database, code: request.rawCode)
        await vouch(for: request, scanned: scanned)
        var request = request
        request.questions = questionsToAsk(request, scanned: scanned)
        request.shopAnswer = await answer(request, scanned: scanned)
        if request.shopAnswer == nil { request.listRules = listRulesVerdict(request, scanned: scanned) }
        return request
    }

    /// The scanned code's guest, looked up at most once however many of the door's steps ask.
    final class ScannedGuest {
        let database: KioskDatabase
        let code: String
        private var looked: GuestDetails??

        init(database: KioskDatabase, code: String) {
            self.database = database
            self.code = code
        }

        var details: GuestDetails? {
            if let looked { return looked }
            let found = (try? database.roster.guest(code: code)) ?? nil
            looked = .some(found)
            return found
        }

        /// The roster changed for this code (a signed ticket kept): the next ask looks again.
        func forget() { looked = nil }
    }

    /// The list's rules on an entry the station decides itself (pretix was not asked, or did
    /// not answer in time), counted over every movement of the ticket the station knows: its
    /// own and those of pretix's other devices that came with the orders. `nil` without rules,
    /// for an exit, or for a code the roster does not hold.
    func listRulesVerdict(_ request: CheckInRequest, scanned: ScannedGuest) -> ListRulesVerdict? {
        guard request.direction == .entry, let rules = rules.withLock({ $0 }), let found = scanned.details else { return nil }
        let movements: [CheckIn]
        do { movements = try database.roster.movements(ofGuest: found.guest.id) } catch {
            return .notUnderstood("the ticket's earlier check-ins could not be read")
        }
        return rules.verdict(item: PretixRoster.item(accessTypeID: found.guest.accessTypeID), gate: link.device.gate?.id, at: request.at,
                             movements: movements)
    }

    /// The questions the door asks before this entry: those of the ticket's product the order
    /// holds no answer to (all of them for a signed ticket known by its signature alone). For a
    /// code the roster does not hold (a station that holds no orders), those pretix asked for
    /// that the scan brings answers to, so the answers can be checked and stored.
    func questionsToAsk(_ request: CheckInRequest, scanned: ScannedGuest) -> [DoorQuestion] {
        guard request.direction == .entry else { return [] }
        let asked = questions.withLock { $0 }
        guard !asked.isEmpty else { return [] }
        guard let found = scanned.details else {
            guard !request.answers.isEmpty else { return [] }
            var byID: [String: DoorQuestion] = [:]
            for question in asked.values.joined() { byID[question.id] = question }
            return request.answers.keys.sorted().compactMap { byID[$0] }
        }
        guard let item = PretixRoster.item(accessTypeID: found.guest.accessTypeID), let forItem = asked[item] else { return [] }
        let facts = found.guest.facts
        if facts.orderCode.isEmpty { return forItem }
        let open = Set(facts.questionsToAsk)
        return forItem.filter { open.contains($0.id) }
    }

    /// Keeps a signed ticket (`pretix_sig1`, verified offline against the event's keys) as a
    /// guest of the list when the roster holds no order for it: a ticket sold since the last
    /// download, or on a station that downloads no orders. The door then decides it as any
    /// ticket, with its own validity, product and date, and refuses it when pretix revoked or
    /// blocked its secret. A ticket whose order the roster holds is left as pretix sent it; a
    /// code no key signed stays unknown.
    func vouch(for request: CheckInRequest, scanned: ScannedGuest) async {
        guard let signed = signed.withLock({ $0 }), !signed.keys.isEmpty,
              let code = TicketCode(normalizing: request.rawCode, caseInsensitive: false), SignedTicketFormat.isSigned(code.value) else { return }
        // A ticket whose order the roster holds needs no signature check: the common case first.
        let known = scanned.details
        if let known, !known.guest.facts.orderCode.isEmpty { return }
        guard case .valid(let ticket) = SignedTicketFormat.check(code.value, keys: signed.keys) else { return }
        var guest = signed.tickets.guest(code: code, ticket: ticket)
        if let known {
            // Written before: again only when pretix withdrew the secret (or lifted a block) since.
            guest.id = known.guest.id
            guard known.guest != guest else { return }
            guest.id = code.value
        }
        do {
            try await database.applyRoster([RosterDelta(guests: [guest], nextCursor: "")], eventID: link.eventID, complete: false,
                                           movesCursor: false)
            scanned.forget()
        } catch {
            logger.error("a signed ticket could not be kept: the door decides it as unknown", metadata: ["error": "\(error)"])
        }
    }

    /// pretix's word on a scan, or `nil` when the station decides alone (local first and nothing
    /// only pretix decides, or pretix did not answer an online-first scan in time).
    public func answer(_ request: CheckInRequest) async -> ShopAnswer? {
        await answer(request, scanned: ScannedGuest(database: database, code: request.rawCode))
    }

    func answer(_ request: CheckInRequest, scanned: ScannedGuest) async -> ShopAnswer? {
        let pretixDecides = onlineNeeds
        // A device that may not download the orders knows only the signed tickets it verified.
        let holdsNoOrders = !link.device.securityProfile.downloadsOrders
        // The common case costs nothing: local first at a list where pretix decides nothing alone.
        guard link.mode == .onlineFirst || holdsNoOrders || (request.direction == .entry && pretixDecides.listRules) else {
            return nil
        }
        let guest = scanned.details
        var check = pretixDecides.check(direction: request.direction)
        if holdsNoOrders && guest == nil { check = .ticket }
        guard check != nil || link.mode == .onlineFirst else { return nil }
        let secret = guest?.guest.code.value ?? String(Sanitized.text(request.rawCode))
        // The nonce its upload will carry: the check-in's key in pretix's terms (the ticket's id there).
        let nonce = guest.map { guest in
            let shopID = ((try? database.roster.hubID(ofGuest: guest.guest.id)) ?? nil) ?? guest.guest.code.value
            return PretixSync.nonce(IdempotencyKey(deviceID: database.deviceID, guestID: shopID, scannedAt: request.at))
        } ?? PretixNonce.random()
        // Answers go with the scan once complete; without them pretix says which it needs.
        var answers: [String: String] = [:]
        if case .complete(let stored) = QuestionsAtTheDoor.check(request.questions, typed: request.answers) { answers = stored }
        let scan = PretixScan(secret: secret, type: request.direction == .exit ? .exit : .entry, nonce: nonce, datetime: PretixTime(request.at),
                              answers: answers, ignoreUnpaid: request.admitUnpaid)
        let result: PretixRedeemResult
        do {
            guard let client = check == nil ? client : patientClient else { throw PretixError.invalidServerURL(link.server) }
            result = try await client.redeem(scan, lists: [link.list], questionsSupported: true)
        } catch {
            logger.notice(check == nil ? "pretix did not answer a scan in time: the station decided it"
                                       : "pretix did not answer a scan only it decides: refused", metadata: ["error": "\(error)"])
            return check.map(ShopAnswer.unreachable)
        }
        return Self.answer(result, guest: guest, check: check, includePending: pretixDecides.includePending)
    }

    /// pretix's redeem answer as the door's: its refusals as the station's decisions; what the
    /// station cannot read (an ambiguous code, pretix's own error, a reason it does not know) is
    /// no answer (the station decides, or refuses what only pretix decides).
    static func answer(_ result: PretixRedeemResult, guest: GuestDetails?, check: OnlineOnlyCheck?, includePending: Bool) -> ShopAnswer? {
        let decision: Decision
        switch result {
        case .ok:
            return .admitted
        case .incomplete(let questions, _):
            // pretix's questions for this ticket, asked at the door; the scan comes again with answers.
            return .refused(.questions(QuestionsAtTheDoor(questions: questions.map { $0.doorQuestion(among: questions) })))
        case .refused(let reason, let explanation, let position):
            switch reason {
            case .invalid: decision = .unknownCode
            case .alreadyRedeemed: decision = .alreadyCheckedIn(previous: firstEntry(position) ?? guest?.checkedIn
                                                                    ?? PriorCheckIn(by: "", station: "pretix", deviceID: "pretix", at: .now()))
            case .invalidTime: decision = .outsideWindow(validFrom: guest?.guest.facts.validFrom, validUntil: guest?.guest.facts.validUntil)
            case .product: decision = .notValidHere(accessType: guest?.accessTypeName ?? "this ticket")
            case .canceled, .blocked, .revoked: decision = .revoked
            case .unpaid: decision = .unpaid(admitAnyway: includePending)
            case .unapproved: decision = .unapproved
            case .rules: decision = .listRules(explanation: explanation)
            case .incomplete: return .unreachable(.questions([]))
            case .ambiguous, .error, .other: return check.map(ShopAnswer.unreachable)
            }
        }
        return .refused(decision)
    }

    /// The first entry pretix lists on the position (its check-ins before this scan).
    static func firstEntry(_ position: PretixRedeemed.Position?) -> PriorCheckIn? {
        guard let first = position?.checkins.filter({ $0.type == .entry }).min(by: { $0.datetime.timestamp < $1.datetime.timestamp }) else { return nil }
        let station = first.deviceID.map { "pretix device \($0)" } ?? "pretix"
        return PriorCheckIn(by: "", station: station, deviceID: first.deviceID.map { "pretix-device-\($0)" } ?? "pretix", at: first.datetime.timestamp)
    }
}
