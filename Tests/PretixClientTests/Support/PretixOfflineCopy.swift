import CheckInCore
import PretixClient

/// What a station holds of a pretix event to decide at the door without asking: the catalog,
/// the revoked and blocked secrets and the orders, as downloaded by ``PretixClient`` (the
/// store's part, in memory, for the tests that compare the door's decision with pretix's).
struct PretixOfflineCopy {
    var items: [Int: PretixItem] = [:]
    var questions: [PretixQuestion] = []
    var lists: [Int: PretixCheckInList] = [:]
    var revoked: Set<String> = []
    var blocked: Set<String> = []
    /// Orders by code: a delta replaces an order whole.
    var orders: [String: PretixOrder] = [:]
    var cursor = PretixOrderCursor.fresh

    /// Downloads event `event` as a station does: catalog, secrets, then every order.
    static func download(_ event: String, with client: PretixClient) async throws -> PretixOfflineCopy {
        var copy = PretixOfflineCopy()
        copy.items = Dictionary(uniqueKeysWithValues: try await client.items(event: event).map { ($0.id, $0) })
        copy.questions = try await client.questions(event: event)
        copy.lists = Dictionary(uniqueKeysWithValues: try await client.checkInLists(event: event).map { ($0.id, $0) })
        copy.revoked = Set(try await client.revokedSecrets(event: event).map(\.secret))
        copy.blocked = Set(try await client.blockedSecrets(event: event).filter { $0.blocked != false }.map(\.secret))
        try await copy.refresh(event, with: client)
        return copy
    }

    /// The orders changed since the last download.
    mutating func refresh(_ event: String, with client: PretixClient) async throws {
        let download = try await client.downloadOrders(event: event, from: cursor)
        for order in download.orders { orders[order.code] = order }
        cursor = download.cursor
    }

    /// What the door decides for `secret` on list `list`.
    func decide(_ secret: String, list: Int, direction: Direction = .entry, at: Timestamp = .now(), admitUnpaid: Bool = false) -> ListVerdict {
        OrderCheckInRules.decide(.init(direction: direction, at: at, admitUnpaid: admitUnpaid), lookup: lookup(secret, list: list),
                                 list: lists[list]!.checkInList)
    }

    func lookup(_ secret: String, list: Int) -> OrderCheckInRules.Lookup {
        let found = orders.values.flatMap { order in order.positions.filter { $0.secret == secret }.map { (order, $0) } }
        switch found.count {
        case 0: return .none(revoked: revoked.contains(secret), blocked: blocked.contains(secret))
        case 1:
            let (order, position) = found[0]
            return .ticket(position.orderTicket(order: order, items: items, questions: questions), movements: position.movements(onList: list))
        default: return .several(count: found.count)
        }
    }
}

extension ListVerdict {
    /// pretix's word for the same outcome: `ok`, or its reason (`incomplete` for questions to ask).
    var pretixOutcome: String {
        switch self {
        case .admitted: "ok"
        case .refused(.needsOnline(.questions)): "incomplete"
        case .refused(let refusal): PretixReason(refusal).code
        }
    }
}
