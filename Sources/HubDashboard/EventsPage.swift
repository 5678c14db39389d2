import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird

/// `GET /events?range=today|week|all`: the events the caller may see (every event for
/// organizers, their assigned ones for support and check-in staff), each row leading to its
/// live page. The same range rule as `GET /v1/events` (``CheckInCore/EventRange``).
struct EventsPage {
    let site: WebSite
    let events: any EventRepository
    /// Accounts whose passwords are being guessed (``SignInLockout``), shown to organizers.
    let guessed: GuessedAccounts

    struct Model {
        var frame: PageFrame
        var filters: [Filter]
        var events: [Row]
        var hasEvents: Bool
        var emptyRange: String
        /// Organizers create events and manage staff.
        var isOrganizer = false
        /// For organizers: accounts whose password is being guessed (``GuessedAccounts``).
        var guessing: [Guessing] = []
    }

    /// One account under guessing, in words.
    struct Guessing {
        var email: String
        var wrongPasswords: Int
        var heldBack: Int
        var since: String
        var last: String
    }

    struct Filter {
        var range: String
        var label: String
        var current: Bool
    }

    struct Row {
        var id: String
        var name: String
        var when: String
        var zone: String
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("/events", use: { request, context in
            let caller = try context.requireCaller()
            // An unknown filter shows every event rather than an error page.
            let range = request.uri.queryParameters.get("range").flatMap(EventRange.init(rawValue:)) ?? .all
            let now = Timestamp.now()
            let rows = try await events.events(visibleTo: caller.staff).filter { range.includes($0, now: now) }.map { event in
                let time = WebTime(timeZone: event.timeZone)
                return Row(id: event.id, name: event.name, when: Self.when(event, time), zone: time.zoneName)
            }
            let model = Model(
                frame: PageFrame("Events", for: caller, request),
                filters: EventRange.allCases.map { Filter(range: $0.rawValue, label: Self.label($0), current: $0 == range) },
                events: rows, hasEvents: !rows.isEmpty, emptyRange: range == .all ? "you may see yet" : Self.label(range).lowercased(),
                isOrganizer: caller.staff.role == .organizer,
                guessing: caller.staff.role == .organizer ? guessing() : [])
            return WebResponse.html(WebAssets.render("events", model))
        })
    }

    /// The accounts with as many wrong passwords lately as a client may make before it waits.
    private func guessing() -> [Guessing] {
        let utc = WebTime(timeZone: "UTC")
        func time(_ date: Date) -> String { utc.dateTime(Timestamp(milliseconds: Int64(date.timeIntervalSince1970 * 1_000))) + " UTC" }
        return guessed.notices(threshold: site.configuration.signInFreeFailures).map {
            Guessing(email: $0.email, wrongPasswords: $0.wrongPasswords, heldBack: $0.heldBack, since: time($0.since), last: time($0.last))
        }
    }

    static func label(_ range: EventRange) -> String {
        switch range {
        case .today: "Today"
        case .week: "This week"
        case .all: "All"
        }
    }

    /// `2026-11-24 18:00 – 2026-11-24 23:00` in the event's time zone; empty without dates.
    static func when(_ event: EventSummary, _ time: WebTime) -> String {
        switch (event.startsAt, event.endsAt) {
        case (nil, nil): ""
        case (let start?, nil): "from " + time.dateTime(start)
        case (nil, let end?): "until " + time.dateTime(end)
        case (let start?, let end?): time.dateTime(start) + " – " + time.dateTime(end)
        }
    }
}
