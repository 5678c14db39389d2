import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging

/// `GET /staff` and its forms: an organizer lists the accounts, adds a person (the initial
/// password is hashed as `checkin-hub staff add` hashes it, through the hub's hashing gate, and
/// never shown again), assigns and unassigns events, disables and enables, resets a password
/// (the person's sessions are revoked; one's own too, after which one signs in again), and revokes
/// sessions (a station's, by device and name). Adding, assigning, enabling and passwords ask for
/// the organizer's own password again (``PasswordConfirmation``). Each change is written with its
/// ``OrganizerAction`` in one transaction. Organizers only.
struct StaffPage {
    let site: WebSite
    let staff: any StaffRepository
    let sessions: any SessionRepository
    let events: any EventRepository
    let hashing: HashingGate
    let passwords: PasswordConfirmation

    /// What the `staff` template reads.
    struct Model {
        var frame: PageFrame
        var forms: Forms
        var notice: String?
        var problems: [String]
        var hasProblems: Bool
        var form: StaffForm
        var roles: [Option]
        var accounts: [AccountRow]
        var sessions: [SessionRow]
        var hasSessions: Bool
    }

    /// The page's forms, each with the token of its own action.
    struct Forms {
        var add, assign, unassign, enable, disable, password, revokeSession: PostForm

        init(_ tokens: FormTokens) {
            add = tokens.form("/staff/add")
            assign = tokens.form("/staff/assign")
            unassign = tokens.form("/staff/unassign")
            enable = tokens.form("/staff/enable")
            disable = tokens.form("/staff/disable")
            password = tokens.form("/staff/password")
            revokeSession = tokens.form("/staff/sessions/revoke")
        }
    }

    struct Option {
        var value: String
        var label: String
        var selected: Bool
    }

    struct AccountRow {
        var email: String
        var name: String
        var role: String
        var disabled: Bool
        var isSelf: Bool
        var seesAll: Bool
        var events: [Option]
        var hasEvents: Bool
        var assignable: [Option]
        var hasAssignable: Bool
    }

    struct SessionRow {
        var id: String
        var email: String
        var station: String
        var hasStation: Bool
        var deviceID: String
        var createdAt: String
        var lastUsedAt: String
        var isOwn: Bool
    }

    /// What the page says after a change (fixed words: nothing from the query is shown).
    static let notices: [String: String] = [
        "added": "Staff member added. Give them their password in person.",
        "assigned": "Assigned to the event.", "unassigned": "No longer assigned to the event.",
        "disabled": "Account disabled: its sessions were revoked.", "enabled": "Account enabled.",
        "password": "Password reset: the person's sessions were revoked.", "revoked": "Session revoked.",
        "own-password": "Your password was changed: every session of yours was signed out, and this is a new one.",
    ]

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("/staff", use: { request, context in
            try await render(request, try context.requireCaller())
        })
        group.post("/staff/add", use: post("web-staff-add", confirmed: true) { form, caller in
            let staffForm = StaffForm(form)
            switch staffForm.decide(id: Tokens.identifier("st")) {
            case .failure(let problems):
                return .refused(problems.messages, staffForm)
            case .success(let (info, password)):
                let hash = try await hashing.hashNewPassword(password)
                try await staff.addStaff(info, passwordHash: hash, audit: OrganizerAction(
                    eventID: nil, actor: caller.staff, kind: .staffAdded, subject: info.email, detail: "\(info.name), \(info.role.rawValue)", at: .now()))
                return .done("added")
            }
        })
        group.post("/staff/assign", use: post("web-staff-assign", confirmed: true) { form, caller in
            let email = form["email"] ?? "", event = form["event"] ?? ""
            _ = try await staff.assign(event: event, email: email, now: .now(), audit: OrganizerAction(
                eventID: event, actor: caller.staff, kind: .staffAssigned, subject: email.lowercased(), at: .now()))
            return .done("assigned")
        })
        group.post("/staff/unassign", use: post("web-staff-unassign") { form, caller in
            let email = form["email"] ?? "", event = form["event"] ?? ""
            _ = try await staff.unassign(event: event, email: email, audit: OrganizerAction(
                eventID: event, actor: caller.staff, kind: .staffUnassigned, subject: email.lowercased(), at: .now()))
            return .done("unassigned")
        })
        group.post("/staff/disable", use: post("web-staff-disable") { form, caller in
            let email = form["email"] ?? ""
            guard email.lowercased() != caller.staff.email.lowercased() else {
                return .refused(["You cannot disable your own account: ask another organizer."], nil)
            }
            let revoked = try await staff.change(staff: email, .disable, now: .now(), audit: OrganizerAction(
                eventID: nil, actor: caller.staff, kind: .staffDisabled, subject: email.lowercased(), detail: "sessions revoked", at: .now()))
            site.logger.info("staff disabled", metadata: ["by": "\(caller.staff.id)", "sessions": "\(revoked.count)"])
            return .done("disabled")
        })
        group.post("/staff/enable", use: post("web-staff-enable", confirmed: true) { form, caller in
            let email = form["email"] ?? ""
            _ = try await staff.change(staff: email, .enable, now: .now(), audit: OrganizerAction(
                eventID: nil, actor: caller.staff, kind: .staffEnabled, subject: email.lowercased(), at: .now()))
            return .done("enabled")
        })
        // One's own password too: the current one was asked for above, and every session of
        // one's own ends with the change, this one included.
        group.post("/staff/password", use: post("web-staff-password", confirmed: true) { form, caller in
            let email = form["email"] ?? "", password = form["password"] ?? ""
            if let problem = NewPassword.problem(password) { return .refused([problem], nil) }
            let hash = try await hashing.hashNewPassword(password)
            _ = try await staff.change(staff: email, .password(hash: hash), now: .now(), audit: OrganizerAction(
                eventID: nil, actor: caller.staff, kind: .passwordReset, subject: email.lowercased(), detail: "sessions revoked", at: .now()))
            guard email.lowercased() == caller.staff.email.lowercased() else { return .done("password") }
            return .redirect(WebRoutes.signIn + "?next=" + WebRoutes.queryEscaped("/staff?done=own-password"))
        })
        group.post("/staff/sessions/revoke", use: post("web-session-revoke") { form, caller in
            let id = form["session"] ?? ""
            let session = try await sessions.sessions().first { $0.id == id && !$0.revoked }
            guard let session else { return .refused(["That session has ended already."], nil) }
            let station = session.stationName.map { "station \($0) (\(session.deviceID ?? "-"))" } ?? "no station"
            _ = try await sessions.revokeSession(id: id, now: .now(), audit: OrganizerAction(
                eventID: nil, actor: caller.staff, kind: .sessionRevoked, subject: id, detail: "\(session.staffEmail), \(station)", at: .now()))
            return .done("revoked")
        })
    }

    /// What a staff form led to.
    enum Outcome {
        /// Redirect to the page with this notice (``notices``).
        case done(String)
        /// Redirect elsewhere.
        case redirect(String)
        /// The page again, with what to correct (and the add form as typed, without its password).
        case refused([String], StaffForm?, HTTPResponse.Status = .unprocessableContent)
    }

    /// A form handler: reads the form, asks for the organizer's own password when `confirmed`,
    /// maps the store's "no such person / event" to words.
    private func post(_ route: String, confirmed: Bool = false,
                      _ body: @escaping @Sendable (WebForm, AuthenticatedSession) async throws -> Outcome) -> HubRoutes.Handler {
        { request, context in
            var request = request
            let caller = try context.requireCaller()
            let form = try await WebForm.read(&request)
            let typed = route == "web-staff-add" ? StaffForm(form) : nil
            let outcome: Outcome
            let confirmation = confirmed ? try await passwords.check(form[PasswordConfirmation.field], of: caller) : .confirmed
            if let words = confirmation.words {
                outcome = .refused([words], typed, confirmation == .missing || confirmation == .wrong ? .unprocessableContent : .tooManyRequests)
            } else {
                do { outcome = try await body(form, caller) } catch let error as HubStoreError {
                    let words = switch error {
                    case .unknownStaff: "There is no such account: reload the page."
                    case .unknownEvent: "There is no such event: reload the page."
                    case .duplicateStaff(let email): "An account with the e-mail \(email) exists already."
                    default: error.description
                    }
                    outcome = .refused([words], typed)
                }
            }
            switch outcome {
            case .done(let notice): return WebResponse.redirect(to: "/staff?done=\(notice)")
            case .redirect(let location): return WebResponse.redirect(to: location)
            case .refused(let problems, let form, let status): return try await render(request, caller, problems: problems, form: form ?? StaffForm(), status: status)
            }
        }
    }

    private func render(_ request: Request, _ caller: AuthenticatedSession, problems: [String] = [], form: StaffForm = StaffForm(),
                        status: HTTPResponse.Status = .ok) async throws -> Response {
        var form = form
        form.password = ""
        let events = try await events.events()
        let names = Dictionary(events.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let accounts = try await staff.staffAccounts(event: nil).map { account in
            let assigned = Set(account.events)
            let seesAll = account.info.role == .organizer
            let mine = account.events.map { Option(value: $0, label: names[$0] ?? $0, selected: false) }
            let others = seesAll ? [] : events.filter { !assigned.contains($0.id) }.map { Option(value: $0.id, label: $0.name, selected: false) }
            return AccountRow(email: account.info.email, name: account.info.name, role: account.info.role.rawValue, disabled: account.disabled,
                              isSelf: account.info.id == caller.staff.id, seesAll: seesAll, events: mine, hasEvents: !mine.isEmpty,
                              assignable: others, hasAssignable: !others.isEmpty)
        }
        let time = WebTime(timeZone: "UTC")
        let sessions = try await sessions.sessions().filter { !$0.revoked }.sorted { $0.lastUsedAt > $1.lastUsedAt }.prefix(200).map { session in
            SessionRow(id: session.id, email: session.staffEmail, station: session.stationName ?? "", hasStation: session.stationName != nil, deviceID: session.deviceID ?? "",
                       createdAt: time.dateTime(session.createdAt), lastUsedAt: time.dateTime(session.lastUsedAt), isOwn: session.id == caller.sessionID)
        }
        let model = Model(
            frame: PageFrame("Staff", for: caller, request), forms: Forms(FormTokens(request, caller)),
            notice: request.uri.queryParameters.get("done").flatMap { Self.notices[String($0)] }, problems: problems, hasProblems: !problems.isEmpty,
            form: form, roles: StaffRole.allCases.reversed().map { Option(value: $0.rawValue, label: $0.rawValue, selected: $0.rawValue == form.role) },
            accounts: accounts, sessions: Array(sessions), hasSessions: !sessions.isEmpty)
        return WebResponse.html(WebAssets.render("staff", model), status: status)
    }
}
