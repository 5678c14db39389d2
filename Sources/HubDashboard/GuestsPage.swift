import CheckInCore
import HubAPI
import HubServer
import Hummingbird

/// `GET /events/{id}/guests?q=…`: the guest lookup, by part of the name, e-mail, ticket code or
/// order code (``GuestQuery``), each match with where they stand (``GuestStatus``) and a link to
/// their page. Organizers and support (check-in staff of the event get 403).
struct GuestsPage {
    let site: WebSite
    let guests: any GuestRepository

    /// At most this many matches are shown; the page says when there are more.
    static let limit = 50

    struct Model {
        var frame: PageFrame
        var eventID: String
        var eventName: String
        var query: String
        var searched: Bool
        var guests: [Row]
        var hasGuests: Bool
        var more: Bool
        var limit = GuestsPage.limit
    }

    /// One match, in words.
    struct Row {
        var id: String
        var path: String
        var name: String
        var code: String
        var email: String
        var company: String
        var orderCode: String
        var hasOrder: Bool
        var hasEmail: Bool
        var accessType: String
        var status: String
        var statusWords: String
        var walkIn: Bool
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("guests", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            let query = GuestQuery(request.uri.queryParameters.get("q") ?? "")
            // One more than shown tells whether there are more.
            let found = try await guests.findGuests(event: event.id, matching: query, limit: Self.limit + 1)
            let rows = found.prefix(Self.limit).map { Self.row($0, event: event.id) }
            let model = Model(
                frame: PageFrame("Guests · \(event.name)", for: caller, request), eventID: event.id,
                eventName: event.name, query: query.text, searched: !query.isEmpty, guests: rows, hasGuests: !rows.isEmpty,
                more: found.count > Self.limit)
            return WebResponse.html(WebAssets.render("guests", model))
        })
    }

    static func row(_ record: GuestRecord, event: String) -> Row {
        let guest = record.guest
        return Row(
            id: guest.id, path: GuestPage.path(event: event, guest: guest.id), name: Self.shown(guest.name), code: guest.code.value,
            email: guest.email, company: guest.company, orderCode: guest.facts.orderCode, hasOrder: !guest.facts.orderCode.isEmpty,
            hasEmail: !guest.email.isEmpty, accessType: guest.accessTypeID,
            status: record.status.rawValue, statusWords: record.status.words, walkIn: guest.walkIn)
    }

    /// A name as the dashboard shows it: control characters (escape codes in a roster) dropped;
    /// the template escapes the rest.
    static func shown(_ text: String) -> String {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
        return kept.isEmpty ? "(no name)" : kept
    }
}
