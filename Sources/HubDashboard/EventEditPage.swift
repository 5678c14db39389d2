import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

/// `GET|POST /events/new`, `GET|POST /events/{id}/edit` and `POST /events/{id}/access-types`:
/// an organizer creates and edits an event (name, dates and time zone, tolerance window, station
/// undo time) and its access types. Every change is written with its ``OrganizerAction`` in
/// one transaction (``AdminRepository``). Organizers only (403 for others).
struct EventEditPage {
    let site: WebSite
    let events: any EventRepository

    /// What the `event-edit` template reads.
    struct Model {
        var frame: PageFrame
        var isNew: Bool
        /// The event's form: create or save.
        var save: PostForm
        /// The access types' forms.
        var saveType: PostForm
        var eventID: String
        var eventName: String
        var form: EventForm
        var zones: [String]
        var problems: [String]
        var hasProblems: Bool
        var saved: String?
        var accessTypes: [AccessTypeRow]
        var hasAccessTypes: Bool
        var newType: AccessTypeForm
        var typeProblems: [String]
        var hasTypeProblems: Bool
    }

    /// One access type, as its edit form shows it.
    struct AccessTypeRow {
        var id: String
        var name: String
        var reentry: Bool
        var rule: String
        var validFrom: String
        var validUntil: String
        var window: String
    }

    func addCreate(to group: RouterGroup<HubRequestContext>) {
        group.get("/events/new", use: { request, context in
            let caller = try context.requireCaller()
            return render(request, caller, event: nil, form: EventForm(), problems: [])
        })
        group.post("/events/new", use: { request, context in
            var request = request
            let caller = try context.requireCaller()
            let form = EventForm(try await WebForm.read(&request))
            switch form.decide(id: Tokens.identifier("ev")) {
            case .failure(let problems):
                return render(request, caller, event: nil, form: form, problems: problems.messages, status: .unprocessableContent)
            case .success(let event):
                try await events.createEvent(event, audit: OrganizerAction(
                    eventID: event.id, actor: caller.staff, kind: .eventCreated, subject: event.id, detail: Self.describe(event), at: .now()))
                site.logger.info("event created", metadata: ["event": "\(event.id)", "by": "\(caller.staff.id)"])
                return WebResponse.redirect(to: "/events/\(event.id)/edit?saved=created")
            }
        })
    }

    func addEdit(to group: RouterGroup<HubRequestContext>) {
        group.get("edit", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            return try await renderEdit(request, caller, event, form: EventForm(event), problems: [])
        })
        group.post("edit", use: { request, context in
            var request = request
            let caller = try context.requireCaller(), event = try context.requireEvent()
            let form = EventForm(try await WebForm.read(&request))
            switch form.decide(id: event.id) {
            case .failure(let problems):
                return try await renderEdit(request, caller, event, form: form, problems: problems.messages, status: .unprocessableContent)
            case .success(let edited):
                try await events.updateEvent(edited, audit: OrganizerAction(
                    eventID: event.id, actor: caller.staff, kind: .eventEdited, subject: event.id, detail: Self.describe(edited), at: .now()))
                return WebResponse.redirect(to: "/events/\(event.id)/edit?saved=event")
            }
        })
        group.post("access-types", use: { request, context in
            var request = request
            let caller = try context.requireCaller(), event = try context.requireEvent()
            let form = AccessTypeForm(try await WebForm.read(&request))
            let zone = TimeZone(identifier: event.timeZone) ?? TimeZone(identifier: "UTC")!
            switch form.decide(zone: zone) {
            case .failure(let problems):
                return try await renderEdit(request, caller, event, form: EventForm(event), problems: [], newType: form,
                                            typeProblems: problems.messages, status: .unprocessableContent)
            case .success(let type):
                let time = WebTime(timeZone: event.timeZone)
                try await events.upsertAccessType(event: event.id, type, audit: OrganizerAction(
                    eventID: event.id, actor: caller.staff, kind: .accessTypeSaved, subject: type.id,
                    detail: "\(type.name): \(Self.rule(type, time))", at: .now()))
                return WebResponse.redirect(to: "/events/\(event.id)/edit?saved=access-type#access-types")
            }
        })
    }

    private func renderEdit(_ request: Request, _ caller: AuthenticatedSession, _ event: EventSummary, form: EventForm, problems: [String],
                            newType: AccessTypeForm = AccessTypeForm(), typeProblems: [String] = [],
                            status: HTTPResponse.Status = .ok) async throws -> Response {
        let types = try await events.accessTypes(event: event.id)
        return render(request, caller, event: event, form: form, problems: problems, types: types, newType: newType,
                      typeProblems: typeProblems, status: status)
    }

    private func render(_ request: Request, _ caller: AuthenticatedSession, event: EventSummary?, form: EventForm, problems: [String],
                        types: [AccessType] = [], newType: AccessTypeForm = AccessTypeForm(), typeProblems: [String] = [],
                        status: HTTPResponse.Status = .ok) -> Response {
        let time = WebTime(timeZone: event?.timeZone ?? "UTC")
        let rows = types.map { type in
            AccessTypeRow(id: type.id, name: type.name, reentry: type.reentry, rule: type.reentry ? "re-entry" : "single entry",
                          validFrom: LocalDateTime.format(type.validFrom, in: time.zone), validUntil: LocalDateTime.format(type.validUntil, in: time.zone),
                          window: Self.window(type, time))
        }
        let saved: String? = switch request.uri.queryParameters.get("saved") ?? "" {
        case "created": "Event created. Add its access types, then upload its roster."
        case "event": "Event saved."
        case "access-type": "Access type saved."
        default: nil
        }
        let forms = FormTokens(request, caller)
        let model = Model(
            frame: PageFrame(event.map { "Edit · \($0.name)" } ?? "New event", for: caller, request),
            isNew: event == nil, save: forms.form(event.map { "/events/\(GuestPage.segment($0.id))/edit" } ?? "/events/new"),
            saveType: forms.form("/events/\(GuestPage.segment(event?.id ?? ""))/access-types"), eventID: event?.id ?? "",
            eventName: event?.name ?? "", form: form, zones: Self.zones, problems: problems, hasProblems: !problems.isEmpty, saved: saved,
            accessTypes: rows, hasAccessTypes: !rows.isEmpty, newType: newType, typeProblems: typeProblems, hasTypeProblems: !typeProblems.isEmpty)
        return WebResponse.html(WebAssets.render("event-edit", model), status: status)
    }

    /// The IANA zones the form offers (any of them may be typed).
    static let zones = TimeZone.knownTimeZoneIdentifiers.sorted()

    /// The event in one line, for the log of organizer actions.
    static func describe(_ event: EventSummary) -> String {
        let time = WebTime(timeZone: event.timeZone)
        let when = EventsPage.when(event, time)
        return "\(event.name)\(when.isEmpty ? "" : ", " + when) \(time.zoneName), tolerance \(event.toleranceWindowMilliseconds / 1000) s, "
            + "undo \(event.stationUndoMilliseconds / 1000) s"
    }

    static func rule(_ type: AccessType, _ time: WebTime) -> String {
        let window = window(type, time)
        return (type.reentry ? "re-entry" : "single entry") + (window.isEmpty ? "" : ", " + window)
    }

    static func window(_ type: AccessType, _ time: WebTime) -> String {
        switch (type.validFrom, type.validUntil) {
        case (nil, nil): ""
        case (let from?, nil): "valid from \(time.dateTime(from))"
        case (nil, let until?): "valid until \(time.dateTime(until))"
        case (let from?, let until?): "valid \(time.dateTime(from)) – \(time.dateTime(until))"
        }
    }
}
