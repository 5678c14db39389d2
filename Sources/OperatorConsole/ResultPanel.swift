import CheckInCore
import Foundation

/// The attendee-facing result: a large colour-coded message, a detail line and a bell pattern.
public struct ResultPanel: Sendable, Equatable {
    /// The colour and bell pattern of a result.
    public enum Tone: String, Sendable, Equatable {
        /// Green, one bell: come in.
        case welcome
        /// Blue, two bells: information (already checked in), not an error.
        case information
        /// Yellow, three bells: this ticket does not open this door.
        case warning
        /// Red, three bells: see staff.
        case refused
        /// Neutral, no bell: operator confirmations ("Check-in undone").
        case neutral
        /// Magenta, one bell: a guest leaving ("Goodbye, José — see you later").
        case farewell
        /// Green with a yellow note band, four bells: admitted, and the staff must read the
        /// ticket's note ("Hand out the VIP lanyard").
        case attention

        /// How many times the terminal bell rings for this tone.
        public var bells: Int {
            switch self {
            case .welcome, .farewell: 1
            case .information: 2
            case .warning, .refused: 3
            case .attention: 4
            case .neutral: 0
            }
        }
    }

    public var tone: Tone
    public var title: String
    public var detail: String
    /// The attendee's badge in their words ("Your badge is printing"), updated while shown.
    public var badge: String?
    /// The ticket's note for the staff, shown in its own band (``Tone/attention``); in
    /// self-service mode the attendee is asked to see staff instead.
    public var note: String?
    /// A whole order's tickets, one line each ("✗ Leo Lima — Already checked in …"), so a refused
    /// member is seen with the others.
    public var members: [String]

    public init(tone: Tone, title: String, detail: String = "", badge: String? = nil, note: String? = nil, members: [String] = []) {
        self.tone = tone
        self.title = title
        self.detail = detail
        self.badge = badge
        self.note = note
        self.members = members
    }

    /// The panel for a decision. Names and places are cleaned here, so nothing from the roster
    /// reaches the terminal raw.
    /// A ticket's staff note (`attention`) turns an admission into ``Tone/attention``.
    /// A revoked ticket's `refusal` (the ticket shop's reason) is its title.
    /// The order's answers the door shows (`answers`, "T-shirt size: M") follow the access type of an admission.
    public init(decision: Decision, guestName: String?, accessType: String?, badge: String? = nil, attention: String? = nil,
                refusal: TicketRefusal? = nil, answers: [String] = [], timeZone: TimeZone = .current, now: Timestamp = .now()) {
        let name = TerminalText.clean(guestName ?? "")
        switch decision {
        case .admitted:
            let note = attention.map(TerminalText.clean).flatMap { $0.isEmpty ? nil : $0 }
            // No name: a ticket the shop admitted online that the station's copy does not hold yet.
            self.init(tone: note == nil ? .welcome : .attention, title: name.isEmpty ? "Welcome" : "Welcome, \(name)",
                      detail: ([accessType.map(TerminalText.clean), badge].compactMap { $0 } + answers.map(TerminalText.clean))
                          .filter { !$0.isEmpty }.joined(separator: " · "),
                      note: note.map { "Staff: \($0)" })
        case .duplicate(let previous) where previous.isBeforeImport, .alreadyCheckedIn(let previous) where previous.isBeforeImport:
            self.init(tone: .information, title: "Already checked in — before import, \(Self.clock(previous.at, timeZone: timeZone))", detail: name)
        case .duplicate(let previous), .alreadyCheckedIn(let previous):
            self.init(tone: .information,
                      title: "Already checked in — \(TerminalText.clean(previous.byAndWhere)), \(Self.clock(previous.at, timeZone: timeZone))",
                      detail: name)
        case .unknownCode:
            self.init(tone: .refused, title: "Ticket not recognized — please see staff")
        case .notValidHere(let type):
            self.init(tone: .warning, title: "Not valid for this entrance", detail: [name, TerminalText.clean(type)].filter { !$0.isEmpty }.joined(separator: " · "))
        case .outsideWindow(let from, let until):
            // When it is valid, so staff can tell the attendee when to come back.
            let window = Self.validity(from: from, until: until, now: now, timeZone: timeZone)
            self.init(tone: .warning, title: "Ticket not valid at this time — please see staff",
                      detail: [name, window].filter { !$0.isEmpty }.joined(separator: " · "))
        case .revoked:
            self.init(tone: .refused, title: TicketRefusal.title(refusal), detail: name)
        case .unpaid:
            self.init(tone: .refused, title: TicketRefusal.title(.unpaid), detail: name)
        case .unapproved:
            self.init(tone: .refused, title: TicketRefusal.title(.unapproved), detail: name)
        case .needsOnline(let check):
            let what = switch check {
            case .rules: "the list's rules"
            case .questions: "questions at the door"
            case .ticket: "this station cannot check the ticket offline"
            }
            self.init(tone: .warning, title: "Only the ticket shop decides this entry and it cannot be reached — scan again, or see staff",
                      detail: [name, what].filter { !$0.isEmpty }.joined(separator: " · "))
        case .listRules(let explanation):
            self.init(tone: .refused, title: "Not admitted by the list's rules — please see staff",
                      detail: [name, TerminalText.clean(explanation ?? "")].filter { !$0.isEmpty }.joined(separator: " · "))
        case .questions(let asked):
            let count = asked.questions.count
            self.init(tone: .information, title: "Questions to answer before entry — please see staff",
                      detail: [name, count == 1 ? "1 question" : "\(count) questions"].filter { !$0.isEmpty }.joined(separator: " · "))
        }
    }

    /// "valid from Sat 28 Nov 09:00" (not yet), "was valid until 18:00" (over), or both ends.
    static func validity(from: Timestamp?, until: Timestamp?, now: Timestamp, timeZone: TimeZone) -> String {
        func when(_ at: Timestamp) -> String { moment(at, now: now, timeZone: timeZone) }
        if let from, now < from { return "valid from " + when(from) + (until.map { " to " + when($0) } ?? "") }
        if let until, now > until { return "was valid until " + when(until) }
        return [from.map { "valid from " + when($0) }, until.map { "until " + when($0) }].compactMap { $0 }.joined(separator: " ")
    }

    /// `HH:mm` today, "Sat 28 Nov 09:00" another day, with the year when it is not this one.
    static func moment(_ at: Timestamp, now: Timestamp, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if calendar.isDate(at.date, inSameDayAs: now.date) { return clock(at, timeZone: timeZone) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = timeZone
        let sameYear = calendar.component(.year, from: at.date) == calendar.component(.year, from: now.date)
        formatter.dateFormat = sameYear ? "EEE d MMM HH:mm" : "EEE d MMM yyyy HH:mm"
        return formatter.string(from: at.date)
    }

    /// `HH:mm`, as the door staff read times.
    public static func clock(_ at: Timestamp, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: at.date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// Why storage did not start, shown instead of the scan prompt.
public struct StorageDiagnostic: Sendable, Equatable {
    public var migration: String?
    public var error: String
    public var pendingCheckIns: Int
    public var guests: Int

    public init(migration: String?, error: String, pendingCheckIns: Int, guests: Int) {
        self.migration = migration
        self.error = error
        self.pendingCheckIns = pendingCheckIns
        self.guests = guests
    }
}
