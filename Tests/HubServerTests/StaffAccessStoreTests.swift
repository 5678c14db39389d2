import CheckInCore
import Foundation
import HubAPI
import HubServer
import KioskTestSupport
import Testing

/// Per-event access and the staff lifecycle: SQLite and PostgreSQL answer alike.
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking) struct StaffAccessStoreTests {
    static let olga = StaffInfo(id: "s-org", email: "olga@x.org", name: "Olga", role: .organizer)
    static let sam = StaffInfo(id: "s-sup", email: "sam@x.org", name: "Sam", role: .support)
    static let alex = StaffInfo(id: "s-st", email: "alex@x.org", name: "Alex", role: .staff)

    static func prepared(_ kind: String) async throws -> (any HubStore, TemporaryDirectory) {
        let (store, directory) = try await StoreContractTests.makeStore(kind)
        _ = try await StoreContractTests.seed(store)
        try await store.createEvent(EventSummary(id: "ev2", name: "Other", toleranceWindowMilliseconds: 30_000), audit: nil)
        for person in [olga, sam, alex] { try await store.addStaff(person, passwordHash: "x", audit: nil) }
        return (store, directory)
    }

    @Test(arguments: StoreContractTests.kinds) func staffSeeOnlyTheEventsTheyAreAssignedToAndOrganizersSeeAll(kind: String) async throws {
        let (store, directory) = try await Self.prepared(kind)
        defer { directory.remove() }
        #expect(try await store.events(visibleTo: Self.olga).map(\.id).sorted() == ["ev1", "ev2"])
        #expect(try await store.events(visibleTo: Self.alex).isEmpty)
        #expect(try await store.event(id: "ev1", visibleTo: Self.alex) == nil)

        #expect(try await store.assign(event: "ev1", emails: ["ALEX@x.org", "sam@x.org"], now: .now(), audit: nil).map(\.id) == ["s-st", "s-sup"])
        _ = try await store.assign(event: "ev1", emails: ["alex@x.org"], now: .now(), audit: nil)  // again: nothing changes
        #expect(try await store.events(visibleTo: Self.alex).map(\.id) == ["ev1"])
        #expect(try await store.event(id: "ev1", visibleTo: Self.sam)?.id == "ev1")
        #expect(try await store.event(id: "ev2", visibleTo: Self.sam) == nil)
        #expect(try await store.event(id: "nope", visibleTo: Self.olga) == nil)
        #expect(try await store.staffAccounts(event: "ev1").map(\.info.email) == ["alex@x.org", "olga@x.org", "sam@x.org"])
        #expect(try await store.staffAccounts(event: "ev2").map(\.info.email) == ["olga@x.org"])

        #expect(try await store.unassign(event: "ev1", emails: ["alex@x.org"], audit: nil) == 1)
        #expect(try await store.event(id: "ev1", visibleTo: Self.alex) == nil)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func anAssignmentNamingAnUnknownPersonOrEventAssignsNobody(kind: String) async throws {
        let (store, directory) = try await Self.prepared(kind)
        defer { directory.remove() }
        await #expect(throws: HubStoreError.unknownStaff("who@x.org")) {
            try await store.assign(event: "ev1", emails: ["alex@x.org", "who@x.org"], now: .now(), audit: nil)
        }
        #expect(try await store.event(id: "ev1", visibleTo: Self.alex) == nil, "the whole command is refused")
        await #expect(throws: HubStoreError.unknownEvent("nope")) { try await store.assign(event: "nope", emails: ["alex@x.org"], now: .now(), audit: nil) }
        await store.close()
    }

    static func session(_ store: any HubStore, _ id: String, for person: StaffInfo) async throws -> NewTokens {
        let now = Timestamp.now()
        let tokens = NewTokens(accessHash: "a-\(id)", accessExpires: now.adding(milliseconds: 600_000), refreshHash: "r-\(id)",
                               refreshExpires: now.adding(milliseconds: 6_000_000))
        try await store.createSession(NewSession(id: id, staffID: person.id, tokens: tokens, createdAt: now))
        return tokens
    }

    @Test(arguments: StoreContractTests.kinds) func disablingRefusesSignInAndEndsEverySessionUntilEnabled(kind: String) async throws {
        let (store, directory) = try await Self.prepared(kind)
        defer { directory.remove() }
        _ = try await Self.session(store, "door-1", for: Self.alex)
        _ = try await Self.session(store, "door-2", for: Self.alex)
        _ = try await Self.session(store, "office", for: Self.sam)
        let revoked = try await store.change(staff: "Alex@x.org", .disable, now: .now(), audit: nil)
        #expect(revoked.map(\.id) == ["door-1", "door-2"])
        #expect(try await store.session(accessHash: "a-door-1", now: .now()) == nil)
        #expect(try await store.session(accessHash: "a-office", now: .now()) != nil, "other people's sessions go on")
        #expect(try await store.staff(email: "alex@x.org") == nil, "sign-in finds no account")
        #expect(try await store.staffAccounts(event: nil).first { $0.info.id == "s-st" }?.disabled == true)

        #expect(try await store.change(staff: "alex@x.org", .enable, now: .now(), audit: nil).isEmpty)
        #expect(try await store.staff(email: "alex@x.org")?.info.id == "s-st")
        #expect(try await store.session(accessHash: "a-door-1", now: .now()) == nil, "enabling brings no session back")
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func aNewPasswordEndsEverySessionAndRemovalFreesTheEmail(kind: String) async throws {
        let (store, directory) = try await Self.prepared(kind)
        defer { directory.remove() }
        _ = try await store.assign(event: "ev1", emails: ["alex@x.org"], now: .now(), audit: nil)
        _ = try await Self.session(store, "door-1", for: Self.alex)
        #expect(try await store.change(staff: "alex@x.org", .password(hash: "new-hash"), now: .now(), audit: nil).map(\.id) == ["door-1"])
        #expect(try await store.staff(email: "alex@x.org")?.passwordHash == "new-hash")
        #expect(try await store.session(accessHash: "a-door-1", now: .now()) == nil)

        _ = try await Self.session(store, "door-3", for: Self.alex)
        #expect(try await store.change(staff: "alex@x.org", .remove, now: .now(), audit: nil).map(\.id) == ["door-3"])
        #expect(try await store.staff(email: "alex@x.org") == nil)
        #expect(try await store.event(id: "ev1", visibleTo: Self.alex) == nil)
        #expect(!(try await store.staffAccounts(event: nil).contains { $0.info.id == "s-st" }))
        await #expect(throws: HubStoreError.unknownStaff("alex@x.org")) { try await store.change(staff: "alex@x.org", .enable, now: .now(), audit: nil) }
        // The address is free for a new account, which starts with no events.
        try await store.addStaff(StaffInfo(id: "s-new", email: "alex@x.org", name: "Alex B", role: .staff), passwordHash: "y", audit: nil)
        #expect(try await store.staff(email: "alex@x.org")?.info.id == "s-new")
        #expect(try await store.events(visibleTo: StaffInfo(id: "s-new", email: "alex@x.org", name: "Alex B", role: .staff)).isEmpty)
        await store.close()
    }

    @Test(arguments: StoreContractTests.kinds) func aSessionEndsAtItsAbsoluteEndHoweverItIsRefreshed(kind: String) async throws {
        let (store, directory) = try await Self.prepared(kind)
        defer { directory.remove() }
        let start = Timestamp.now()
        let tokens = NewTokens(accessHash: "a1", accessExpires: start.adding(milliseconds: 3_600_000), refreshHash: "r1",
                               refreshExpires: start.adding(milliseconds: 86_400_000))
        try await store.createSession(NewSession(id: "short", staffID: Self.alex.id, tokens: tokens, createdAt: start, endsAt: start.adding(milliseconds: 60_000)))
        #expect(try await store.session(accessHash: "a1", now: start)?.endsAt == start.adding(milliseconds: 60_000))
        let next = NewTokens(accessHash: "a2", accessExpires: start.adding(milliseconds: 3_600_000), refreshHash: "r2",
                             refreshExpires: start.adding(milliseconds: 86_400_000))
        #expect(try await store.rotate(refreshHash: "r1", to: next, now: start.adding(milliseconds: 30_000), graceMilliseconds: 0) != nil)
        let late = start.adding(milliseconds: 60_001)
        #expect(try await store.session(accessHash: "a2", now: late) == nil, "the access token has an hour left, the session does not")
        let after = NewTokens(accessHash: "a3", accessExpires: late.adding(milliseconds: 3_600_000), refreshHash: "r3",
                              refreshExpires: late.adding(milliseconds: 86_400_000))
        #expect(try await store.rotate(refreshHash: "r2", to: after, now: late, graceMilliseconds: 0) == nil)
        await store.close()
    }
}
