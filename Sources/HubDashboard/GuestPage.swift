import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

/// `GET /events/{id}/guests/{guest}`: one guest — their fields, the ticket's facts, where they
/// stand, every movement and refused attempt (times in the event's zone), and the organizer
/// actions taken on them — with the two changes an organizer makes here:
///
/// - `POST …/checkin`: a manual check-in, decided by the same rules as a station's upload
///   (``ManualCheckIn``); a refusal is shown in words ("already checked in at 10:02 at Door A").
/// - `POST …/revoke` (with a reason) and `POST …/restore`: the ticket, for every station at its
///   next roster change.
///
/// Each change writes its organizer action in its own transaction; each form answers with a
/// redirect back to the page (``GuestNotice``). Organizers and support.
struct GuestPage {
    let site: WebSite
    let guests: any GuestRepository

    /// At most this many lines of history are shown, newest first.
    static let historyLimit = 200

    static func path(event: String, guest: String) -> String {
        "/events/\(segment(event))/guests/\(segment(guest))"
    }

    /// One path segment: anything but letters, digits and `-._~` percent-encoded.
    static func segment(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    struct Model {
        var frame: PageFrame
        var eventID: String
        var eventName: String
        var zone: String
        var path: String
        var checkIn: PostForm
        var revoke: PostForm
        var restore: PostForm
        var guest: GuestsPage.Row
        var facts: [Fact]
        var attention: String
        var hasAttention: Bool
        var orderSearch: String
        var hasOrder: Bool
        var revoked: Bool
        var notice: String
        var hasNotice: Bool
        var refusal: Bool
        var history: [Line]
        var hasHistory: Bool
        var actions: [ActionLine]
        var hasActions: Bool
        var reasonLimit = RevokeReason.maximumLength
    }

    struct Fact {
        var label: String
        var value: String
    }

    /// One movement or attempt, in words.
    struct Line {
        var at: String
        var direction: String
        var station: String
        var by: String
        var source: String
        var outcome: String
        var accepted: Bool
        /// Refused (not a duplicate, which is the same admission seen again).
        var refused: Bool
        var undone: Bool
    }

    struct ActionLine {
        var at: String
        var by: String
        var what: String
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("guests/:guest", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            guard let id = context.parameters.get("guest"), let record = try await guests.guestRecord(event: event.id, id: id) else {
                return WebResponse.problem(.notFound, "No such guest", "This event has no guest with that id. Search for them by name or code.")
            }
            let time = WebTime(timeZone: event.timeZone)
            let history = try await guests.guestHistory(event: event.id, guestID: id, limit: Self.historyLimit)
            let actions = try await guests.guestActions(event: event.id, guestID: id, limit: Self.historyLimit)
            let notice = request.uri.queryParameters.get("done").flatMap { GuestNotice(rawValue: String($0)) }
            let admission = history.first { $0.status == "accepted" && $0.direction == "entry" && !$0.undone }
            let guest = record.guest, path = Self.path(event: event.id, guest: id), forms = FormTokens(request, caller)
            let model = Model(
                frame: PageFrame("\(GuestsPage.shown(guest.name)) · \(event.name)", for: caller, request),
                eventID: event.id, eventName: event.name, zone: time.zoneName, path: path,
                checkIn: forms.form(path + "/checkin"), revoke: forms.form(path + "/revoke"), restore: forms.form(path + "/restore"),
                guest: GuestsPage.row(record, event: event.id), facts: Self.facts(guest, time: time),
                attention: GuestsPage.shown(guest.facts.attention ?? ""), hasAttention: !(guest.facts.attention ?? "").isEmpty,
                orderSearch: guest.facts.orderCode.isEmpty ? "" : "/events/\(Self.segment(event.id))/guests?q=" + WebRoutes.queryEscaped(guest.facts.orderCode),
                hasOrder: !guest.facts.orderCode.isEmpty, revoked: guest.revoked,
                notice: notice?.words(admission: admission, facts: guest.facts, time: time) ?? "", hasNotice: notice != nil,
                refusal: notice?.isRefusal ?? false,
                history: history.map { Self.line($0, time: time) }, hasHistory: !history.isEmpty,
                actions: actions.map { ActionLine(at: time.dateTime($0.at), by: $0.actorName, what: Self.words($0)) },
                hasActions: !actions.isEmpty)
            return WebResponse.html(WebAssets.render("guest", model))
        })

        group.post("guests/:guest/checkin", use: { _, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            guard let id = context.parameters.get("guest"), try await guests.guestRecord(event: event.id, id: id) != nil else {
                return WebResponse.problem(.notFound, "No such guest", "This event has no guest with that id. Search for them by name or code.")
            }
            let now = Timestamp.now(), staff = caller.staff
            let result = try await guests.manualCheckIn(
                event: event, ManualCheckIn.upload(guestID: id, by: staff, at: now), uploader: Uploader(caller), now: now,
                audit: { ManualCheckIn.action(event: event.id, by: staff, guestID: id, result: $0, at: now) })
            site.logger.info("manual check-in", metadata: ["event": "\(event.id)", "staff": "\(staff.id)", "decision": "\(result.decision.rawValue)"])
            return WebResponse.redirect(to: Self.path(event: event.id, guest: id) + "?done=" + GuestNotice(result.decision).rawValue)
        })

        for revoke in [true, false] {
            group.post("guests/:guest/\(revoke ? "revoke" : "restore")", use: { request, context in
                let caller = try context.requireCaller(), event = try context.requireEvent()
                guard let id = context.parameters.get("guest") else { throw HubProblem.notFound }
                var reason = ""
                if revoke {
                    // The middleware has read the form (and checked its token); the body is kept.
                    var request = request
                    guard let given = RevokeReason(try await WebForm.read(&request)["reason"]) else {
                        return WebResponse.redirect(to: Self.path(event: event.id, guest: id) + "?done=" + GuestNotice.reasonMissing.rawValue)
                    }
                    reason = given.text
                }
                let action = OrganizerAction(eventID: event.id, actor: caller.staff, kind: revoke ? .guestRevoked : .guestRestored, subject: id,
                                             detail: reason, at: .now())
                guard try await guests.setRevoked(event: event.id, guestID: id, revoked: revoke, action: action) else {
                    return WebResponse.problem(.notFound, "No such guest", "This event has no guest with that id. Search for them by name or code.")
                }
                site.logger.info(revoke ? "ticket revoked" : "ticket restored", metadata: ["event": "\(event.id)", "staff": "\(caller.staff.id)"])
                return WebResponse.redirect(to: Self.path(event: event.id, guest: id) + "?done=" + (revoke ? GuestNotice.revoked : .restored).rawValue)
            })
        }
    }

    static func words(_ action: OrganizerAction) -> String {
        switch action.kind {
        case .guestRevoked: "revoked the ticket" + (action.detail.isEmpty ? "" : ": " + action.detail)
        case .guestRestored: "restored the ticket"
        case .manualCheckIn: "checked in from the dashboard: " + action.detail
        default: action.kind.rawValue.replacingOccurrences(of: "_", with: " ")
        }
    }

    static func facts(_ guest: Guest, time: WebTime) -> [Fact] {
        var facts = [Fact(label: "Ticket code", value: guest.code.value)]
        if !guest.email.isEmpty { facts.append(Fact(label: "E-mail", value: guest.email)) }
        if !guest.company.isEmpty { facts.append(Fact(label: "Company", value: guest.company)) }
        facts.append(Fact(label: "Access type", value: guest.accessTypeID))
        if !guest.facts.orderCode.isEmpty { facts.append(Fact(label: "Order", value: guest.facts.orderCode)) }
        facts.append(Fact(label: "Valid from", value: guest.facts.validFrom.map { time.dateTime($0) } ?? "the event's own times"))
        facts.append(Fact(label: "Valid until", value: guest.facts.validUntil.map { time.dateTime($0) } ?? "the event's own times"))
        if let before = guest.facts.checkedInBefore {
            facts.append(Fact(label: "Checked in before the import", value: time.dateTime(before)))
        }
        if guest.walkIn { facts.append(Fact(label: "Registered", value: "at the door (walk-in)")) }
        return facts
    }

    static func line(_ movement: GuestMovement, time: WebTime) -> Line {
        let outcome: String
        switch movement.status {
        case "accepted": outcome = movement.direction == "exit" ? "left" : "admitted"
        case "duplicate": outcome = "duplicate (already admitted moments before)"
        default: outcome = "refused: " + (movement.reason ?? movement.decision.replacingOccurrences(of: "_", with: " "))
        }
        return Line(
            at: time.dateTime(movement.scannedAt) + ":" + time.time(movement.scannedAt).suffix(2), direction: movement.direction,
            station: GuestsPage.shown(movement.station), by: GuestsPage.shown(movement.operatorName),
            source: movement.source.replacingOccurrences(of: "_", with: "-"), outcome: outcome,
            accepted: movement.status == "accepted", refused: movement.status == "rejected", undone: movement.undone)
    }
}
