@testable import CheckInCore

/// The access types, clock and guest the rule tests share.
protocol RulesFixture {}

extension RulesFixture {
    var single: AccessType { AccessType(id: "general", name: "General") }
    var reentry: AccessType { AccessType(id: "vip", name: "VIP", reentry: true) }
    var t0: Timestamp { Timestamp(milliseconds: 1_790_000_000_000) }

    func guest(_ type: AccessType, revoked: Bool = false) -> Guest {
        Guest(id: "g1", code: TicketCode(stored: "ABC"), name: "José Müller", accessTypeID: type.id, revoked: revoked)
    }
}
