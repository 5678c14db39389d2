import CheckInCore

/// pretix's data as the values ``CheckInCore/OrderCheckInRules`` decides on, so the door decides
/// offline as pretix does online.
extension PretixCheckInList {
    /// The list's admission settings.
    public var checkInList: CheckInList {
        CheckInList(id: String(id), name: name, products: allProducts ? nil : Set(limitProducts.map(String.init)),
                    subevent: subevent.map(String.init), includesPending: includePending, allowsMultipleEntries: allowMultipleEntries,
                    allowsEntryAfterExit: allowEntryAfterExit, hasRules: !rules.isEmpty)
    }
}

extension PretixPosition {
    /// The ticket with its order's state, its product's name (from `items`, by id) and the
    /// questions to ask at the door it has no answer to.
    public func orderTicket(order: PretixOrder, items: [Int: PretixItem], questions: [PretixQuestion]) -> OrderTicket {
        let answered = Set(answers.map(\.question))
        let toAsk = questions.filter { $0.askDuringCheckin && $0.items.contains(item) && !answered.contains($0.id) }.map { String($0.id) }
        return OrderTicket(
            orderStatus: order.status.orderStatus, requiresApproval: order.requireApproval, validIfPending: order.validIfPending,
            blocked: !(blocked ?? []).isEmpty, validFrom: validFrom?.timestamp, validUntil: validUntil?.timestamp,
            product: String(item), productName: items[item].map { $0.name.text() } ?? "product \(item)",
            subevent: subevent.map(String.init), questionsToAsk: toAsk)
    }

    /// The position's check-ins on list `list`, from every device, as movements; a gate's name
    /// from `gates` (by id) says where.
    public func movements(onList list: Int, gates: [Int: String] = [:]) -> [ListMovement] {
        checkins.filter { $0.list == list }.map { checkIn in
            let device = checkIn.deviceID.map { "pretix-device-\($0)" } ?? "pretix"
            let station = checkIn.gate.flatMap { gates[$0] } ?? checkIn.deviceID.map { "pretix device \($0)" } ?? "pretix"
            return ListMovement(direction: checkIn.type == .exit ? .exit : .entry,
                                prior: PriorCheckIn(by: "pretix", station: station, deviceID: device, at: checkIn.datetime.timestamp))
        }
    }
}

extension PretixOrder.Status {
    public var orderStatus: OrderTicket.OrderStatus {
        switch self {
        case .paid: .paid
        case .pending: .pending
        case .expired: .expired
        case .canceled: .canceled
        }
    }
}

extension PretixReason {
    /// The reason pretix records for a scan the station refused (a failed check-in's `error_reason`).
    public init(_ refusal: ListRefusal) {
        switch refusal {
        case .unknownCode, .otherDate: self = .invalid
        case .ambiguous: self = .ambiguous
        case .revoked: self = .revoked
        case .canceled: self = .canceled
        case .blocked: self = .blocked
        case .unapproved: self = .unapproved
        case .outsideWindow: self = .invalidTime
        case .productNotOnList: self = .product
        case .unpaid: self = .unpaid
        case .needsOnline(.rules): self = .rules
        case .needsOnline(.questions): self = .incomplete
        case .needsOnline(.ticket): self = .error
        case .alreadyCheckedIn: self = .alreadyRedeemed
        }
    }
}
