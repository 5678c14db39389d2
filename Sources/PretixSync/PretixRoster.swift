import CheckInCore
import KioskStore
import PretixClient

/// pretix's orders as the station's roster, for one check-in list: a pure value.
///
/// Each ticket (position) is a guest known by its secret, the code on the ticket: pretix's
/// secrets are the ids the station uploads by (``PretixLink``), sealed like every code. A ticket
/// pretix would not admit at this list for good is kept revoked, so the door refuses it and says
/// so: a canceled or expired order or position, a blocked ticket, an order awaiting approval,
/// and an unpaid order unless the list includes pending orders or pretix marked it valid before
/// payment. An unpaid order on a list that includes pending orders is kept with "unpaid" as its
/// facts' refusal but not revoked: the door asks staff "admit anyway?", as pretix's devices do.
/// Tickets of products the list does not admit, and on a list for one date of a series the
/// tickets of other dates, are kept refused too, so the door says "not valid for this entrance"
/// (and tells pretix `product`, or `invalid` for another date, as pretix's devices do) rather
/// than "not recognized". Check-ins made on this list by pretix's other devices
/// and the organizer come with the guests, so a second door knows who is in; the station's own come back from pretix too and are skipped (it has them already).
public struct PretixRoster: Sendable {
    public var list: PretixCheckInList
    public var items: [PretixItem]
    /// This station's `device_id` at pretix.
    public var deviceID: Int
    /// The event's questions: the answers of those shown during check-in come with each ticket.
    public var questions: [PretixQuestion]

    public init(list: PretixCheckInList, items: [PretixItem], deviceID: Int, questions: [PretixQuestion] = []) {
        self.list = list
        self.items = items
        self.deviceID = deviceID
        self.questions = questions
    }

    /// The position's answers to the questions pretix shows during check-in, as the door shows
    /// them ("T-shirt size: M"; a yes/no answer as Yes or No).
    func shownAnswers(_ position: PretixPosition) -> [String] {
        position.answers.compactMap { answer in
            guard let question = questions.first(where: { $0.id == answer.question }), question.showDuringCheckin,
                  question.items.contains(position.item), !answer.answer.isEmpty else { return nil }
            let words = question.type == "B" ? (answer.answer == "True" ? "Yes" : "No") : answer.answer
            return "\(question.question.text()): \(words)"
        }
    }

    /// The questions pretix asks at the door for the position's product that its order holds
    /// no answer to (their ids), in pretix's order.
    func questionsToAsk(_ position: PretixPosition) -> [String] {
        let answered = Set(position.answers.map(\.question))
        return questions.filter { $0.askDuringCheckin && $0.items.contains(position.item) && !answered.contains($0.id) }.map { String($0.id) }
    }

    /// The station's access type for pretix product `item`.
    public static func accessTypeID(item: Int) -> String { "pretix-item-\(item)" }

    /// The pretix product of a station access type, `nil` for one pretix did not make.
    public static func item(accessTypeID: String) -> Int? {
        accessTypeID.hasPrefix("pretix-item-") ? Int(accessTypeID.dropFirst("pretix-item-".count)) : nil
    }

    /// The event's products as access types (those the list does not admit name the tickets the
    /// door refuses): re-entry where the list lets a guest in any number of times; otherwise one
    /// entry, or one stay at a time where the list allows entry after exit.
    public var accessTypes: [AccessType] {
        items.map { item in
            AccessType(id: Self.accessTypeID(item: item.id), name: item.name.text(), reentry: list.allowMultipleEntries,
                       entryAfterExit: list.allowEntryAfterExit)
        }
    }

    func admits(item: Int) -> Bool { list.allProducts || list.limitProducts.contains(item) }

    /// A list for one date of an event series admits that date's tickets only (pretix: `invalid`).
    func admits(subevent: Int?) -> Bool { list.subevent == nil || list.subevent == subevent }

    /// A page of orders as roster changes, with the download's cursor to keep with them.
    public func delta(_ orders: [PretixOrder], cursor: String, withAccessTypes: Bool) -> RosterDelta {
        var guests: [Guest] = []
        var checkIns: [CheckIn] = []
        let attentionItems = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for order in orders {
            for position in order.positions {
                guard let code = TicketCode(normalizing: position.secret, caseInsensitive: false) else { continue }
                let item = attentionItems[position.item]
                var attention: [String] = []
                if order.checkinAttention || item?.checkinAttention == true { attention.append("Special attention") }
                if let text = item?.checkinText, !text.isEmpty { attention.append(text) }
                if let text = order.checkinText, !text.isEmpty { attention.append(text) }
                let refusal = refusal(order, position)
                let facts = TicketFacts(validFrom: position.validFrom?.timestamp, validUntil: position.validUntil?.timestamp,
                                        attention: attention.isEmpty ? nil : attention.joined(separator: ". "), orderCode: order.code,
                                        refusal: refusal ?? leftToTheDoor(order), shopTicketID: String(position.id),
                                        badgePrintedElsewhere: badgePrintedElsewhere(position), shownAnswers: shownAnswers(position),
                                        questionsToAsk: questionsToAsk(position))
                guests.append(Guest(id: position.secret, code: code, name: position.attendeeName ?? "", email: position.attendeeEmail ?? "",
                                    company: position.company ?? "", accessTypeID: Self.accessTypeID(item: position.item),
                                    revoked: refusal != nil, facts: facts))
                for checkIn in position.checkins where checkIn.list == list.id && checkIn.deviceID != deviceID {
                    let device = checkIn.deviceID.map { "pretix-device-\($0)" } ?? "pretix"
                    let key = IdempotencyKey(deviceID: device, guestID: position.secret, scannedAt: checkIn.datetime.timestamp)
                    checkIns.append(CheckIn(key: key, station: checkIn.deviceID.map { "pretix device \($0)" } ?? "pretix",
                                            operatorName: "", source: .scanner, direction: checkIn.type == .exit ? .exit : .entry))
                }
            }
        }
        return RosterDelta(accessTypes: withAccessTypes ? accessTypes : [], guests: guests, checkIns: checkIns, nextCursor: cursor)
    }

    /// When another device (or pretix itself) first printed a badge for the ticket: "print once"
    /// prints no second one. This station's own print logs come back too and are skipped (its own
    /// print jobs say the same).
    func badgePrintedElsewhere(_ position: PretixPosition) -> Timestamp? {
        position.printLogs.filter { $0.type == "badge" && $0.successful != false && $0.deviceID != deviceID }.map(\.datetime.timestamp).min()
    }

    /// An unpaid order on a list that includes pending orders: pretix leaves it to the door
    /// ("admit anyway?"), so the guest is not revoked but the door asks (``CheckInRules``).
    func leftToTheDoor(_ order: PretixOrder) -> TicketRefusal? {
        order.status == .pending && list.includePending && !order.validIfPending ? .unpaid : nil
    }

    /// Why pretix would not admit the ticket at this list at all, in pretix's order (its time
    /// window, which pretix looks at before the product, and the entry rules are the door's to
    /// decide); `nil` when it may.
    func refusal(_ order: PretixOrder, _ position: PretixPosition) -> TicketRefusal? {
        if position.canceled || order.status == .canceled { return .canceled }
        if !(position.blocked ?? []).isEmpty { return .blocked }
        if order.status == .expired { return .expired }
        if order.requireApproval { return .unapproved }
        if !admits(item: position.item) { return .product }
        if !admits(subevent: position.subevent) { return .otherDate }
        if order.status == .pending && !(list.includePending || order.validIfPending) { return .unpaid }
        return nil
    }
}
