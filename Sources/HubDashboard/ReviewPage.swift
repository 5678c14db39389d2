import CheckInCore
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

/// `GET /events/{id}/review`: what the hub kept but wants a person to look at (conflicts,
/// flagged walk-ins, refused uploads, flagged exits), each with the facts and its actions:
/// mark reviewed, merge a walk-in into its registration, undo an admission. Organizers and
/// support (check-in staff get 403); every action is a form (CSRF-checked by
/// ``WebAccessMiddleware``) answered by a redirect back to the page, and audited by the store.
struct ReviewPage {
    let site: WebSite
    let review: any ReviewRepository

    /// At most this many items on the page (the oldest first).
    static let limit = 1_000

    /// What the `review` template reads.
    struct Model {
        var frame: PageFrame
        var eventID: String
        var eventName: String
        var zone: String
        var forms: Forms
        var notice: String?
        var toReview: Int
        var conflicts: [ReviewBoard.Row]
        var walkIns: [ReviewBoard.Row]
        var refusals: [ReviewBoard.Row]
        var exits: [ReviewBoard.Row]
        var reviewed: [ReviewBoard.Row]
        var hasConflicts: Bool
        var hasWalkIns: Bool
        var hasRefusals: Bool
        var hasExits: Bool
        var hasReviewed: Bool
        var limited: Bool
        var limit: Int
    }

    /// The actions every row offers, each form with its own token.
    struct Forms {
        var mark: PostForm
        var merge: PostForm
        var undo: PostForm

        init(event: String, _ tokens: FormTokens) {
            let base = "/events/\(GuestPage.segment(event))/review"
            mark = tokens.form(base + "/mark")
            merge = tokens.form(base + "/merge")
            undo = tokens.form(base + "/undo")
        }
    }

    /// What a redirect after an action says on the page (fixed words: nothing from the query
    /// string reaches the page).
    enum Notice: String, CaseIterable {
        case reviewed, merged, undone

        var words: String {
            switch self {
            case .reviewed: "Marked reviewed."
            case .merged: "Merged. Stations apply it at their next sync."
            case .undone: "Admission undone. Stations apply it at their next sync."
            }
        }
    }

    static func path(_ event: String, _ notice: Notice? = nil) -> String {
        "/events/\(WebRoutes.queryEscaped(event))/review" + (notice.map { "?done=\($0.rawValue)" } ?? "")
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("review", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            let time = WebTime(timeZone: event.timeZone)
            let items = try await review.reviewItems(event: event.id, limit: Self.limit)
            let board = ReviewBoard(items, time: time)
            let model = Model(
                frame: PageFrame("Review · \(event.name)", for: caller, request), eventID: event.id,
                eventName: event.name, zone: time.zoneName, forms: Forms(event: event.id, FormTokens(request, caller)),
                notice: request.uri.queryParameters.get("done").flatMap(Notice.init(rawValue:))?.words, toReview: board.toReview,
                conflicts: board.conflicts, walkIns: board.walkIns, refusals: board.refusals, exits: board.exits, reviewed: board.reviewed,
                hasConflicts: !board.conflicts.isEmpty, hasWalkIns: !board.walkIns.isEmpty, hasRefusals: !board.refusals.isEmpty,
                hasExits: !board.exits.isEmpty, hasReviewed: !board.reviewed.isEmpty, limited: items.count >= Self.limit, limit: Self.limit)
            return WebResponse.html(WebAssets.render("review", model))
        })

        group.post("review/mark", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            var request = request
            let form = try await WebForm.read(&request)
            guard let kind = form["kind"].flatMap(ReviewItem.Kind.init(rawValue:)), let subject = form["subject"], !subject.isEmpty else {
                return WebResponse.problem(.unprocessableContent, "Nothing to mark", "The form did not say which item. Reload the page and try again.")
            }
            switch try await review.markReviewed(event: event.id, kind: kind, subject: subject, by: caller.staff, now: .now()) {
            case .marked, .alreadyMarked:
                site.logger.info("review item marked", metadata: ["event": "\(event.id)", "kind": "\(kind.rawValue)", "staff": "\(caller.staff.id)"])
                return WebResponse.redirect(to: Self.path(event.id, .reviewed))
            case .notFound:
                return WebResponse.problem(.notFound, "No such item", "This item is not (or no longer) on the event's review list. Reload the page.")
            }
        })

        group.post("review/merge", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            var request = request
            let form = try await WebForm.read(&request)
            guard let walkIn = form["walkIn"], !walkIn.isEmpty, let into = form["into"], !into.isEmpty else {
                return WebResponse.problem(.unprocessableContent, "Nothing to merge", "The form did not say which walk-in. Reload the page and try again.")
            }
            let outcome = try await review.mergeWalkIn(event: event.id, walkIn: walkIn, into: into, by: caller.staff, now: .now())
            guard outcome.succeeded else { return WebResponse.problem(.conflict, "Not merged", outcome.description) }
            site.logger.info("walk-in merged", metadata: ["event": "\(event.id)", "changed": "\(outcome.changed)", "staff": "\(caller.staff.id)"])
            return WebResponse.redirect(to: Self.path(event.id, .merged))
        })

        group.post("review/undo", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            var request = request
            let form = try await WebForm.read(&request)
            guard let text = form["key"], let key = IdempotencyKey(text) else {
                return WebResponse.problem(.unprocessableContent, "Nothing to undo", "The form did not say which admission. Reload the page and try again.")
            }
            let result = try await review.undoAdmission(event: event, key: key, by: caller.staff, now: .now())
            switch result.status {
            case .undone:
                site.logger.info("admission undone", metadata: ["event": "\(event.id)", "staff": "\(caller.staff.id)"])
                return WebResponse.redirect(to: Self.path(event.id, .undone))
            case .notFound:
                return WebResponse.problem(.notFound, "No such admission", "The hub has no accepted check-in with this key. Reload the page.")
            default:
                return WebResponse.problem(.forbidden, "Not undone", result.reason ?? "You may not undo this admission.")
            }
        })
    }
}
