import CheckInCore
import HubAPI
import HubServer

/// The review page's content, from the store's items: pure, so the wording and the split into
/// "to review" and "reviewed" are tested without a hub.
struct ReviewBoard {
    /// One item, in the words an organizer reads.
    struct Row {
        var kind: String
        /// `conflict`, `walk-in`, `refusal`, `exit`, or `reviewed` once decided: the row's `data-test`.
        var testName: String
        var subject: String
        var guestID: String
        var guestName: String
        var guestCode: String
        var guestEmail: String
        /// The upload the item is about: "Door 2 · Alex · 2026-11-24 19:41:07".
        var upload: String
        var uploadLabel: String
        /// A conflict's first admission, in the same words.
        var first: String?
        var firstUndone: Bool
        /// The first admission's key, for the undo form; `nil` when there is nothing to undo.
        var undoKey: String?
        /// What the hub decided, in words.
        var decision: String
        var registrationID: String?
        var registration: String?
        /// A walk-in that may still be merged.
        var canMerge: Bool
        var reviewed: Bool
        /// "Reviewed by Olga at 2026-11-24 20:02" / "Merged into … by …".
        var mark: String?
    }

    var conflicts: [Row] = []
    var walkIns: [Row] = []
    var refusals: [Row] = []
    var exits: [Row] = []
    var reviewed: [Row] = []

    init(_ items: [ReviewItem], time: WebTime) {
        for item in items {
            let row = Self.row(item, time: time)
            guard item.mark == nil else {
                reviewed.append(row)
                continue
            }
            switch item.kind {
            case .conflict: conflicts.append(row)
            case .walkIn: walkIns.append(row)
            case .refusal: refusals.append(row)
            case .flaggedExit: exits.append(row)
            }
        }
    }

    var toReview: Int { conflicts.count + walkIns.count + refusals.count + exits.count }

    /// Everything a station or an import wrote passes ``CheckInCore/Sanitized/text(_:)`` (no
    /// control characters or bidi overrides); the template escapes the rest.
    static func row(_ item: ReviewItem, time: WebTime) -> Row {
        let clean = Sanitized.text
        let first = item.first.map { words($0, time: time) }
        let registration = item.registration.map { guest in
            [guest.name.isEmpty ? guest.id : guest.name, guest.code, guest.email].map(clean).filter { !$0.isEmpty }.joined(separator: " · ")
        }
        let mark = item.mark.map { mark in
            let what = switch mark.resolution {
            case .reviewed: "Reviewed"
            case .merged: "Merged into \(registration ?? "the registration")"
            }
            return "\(what) by \(clean(mark.actorName)) at \(time.dateTime(mark.at))"
        }
        return Row(
            kind: item.kind.rawValue, testName: item.mark != nil ? "reviewed" : testName(item.kind), subject: item.subject, guestID: item.guest.id,
            guestName: clean(item.guest.name.isEmpty ? "Unknown guest \(item.guest.id)" : item.guest.name), guestCode: clean(item.guest.code),
            guestEmail: clean(item.guest.email), upload: words(item.upload, time: time), uploadLabel: uploadLabel(item.kind),
            first: first, firstUndone: item.firstUndone,
            undoKey: item.kind == .conflict && !item.firstUndone ? item.first?.key.description : nil,
            decision: decision(item), registrationID: item.registration?.id, registration: registration,
            canMerge: item.kind == .walkIn && item.mark?.resolution != .merged && item.decision == "possible_duplicate" && item.registration != nil,
            reviewed: item.mark != nil, mark: mark)
    }

    static func words(_ upload: ReviewUpload, time: WebTime) -> String {
        [Sanitized.text(upload.station), Sanitized.text(upload.operatorName), "\(time.dateTime(upload.at).prefix(10)) \(time.time(upload.at))"]
            .filter { !$0.isEmpty }.joined(separator: " · ")
    }

    static func testName(_ kind: ReviewItem.Kind) -> String {
        switch kind {
        case .conflict: "conflict"
        case .walkIn: "walk-in"
        case .refusal: "refusal"
        case .flaggedExit: "exit"
        }
    }

    static func uploadLabel(_ kind: ReviewItem.Kind) -> String {
        switch kind {
        case .conflict: "Second admission"
        case .walkIn: "Added"
        case .refusal: "Refused upload"
        case .flaggedExit: "Exit"
        }
    }

    /// What the hub decided, in words.
    static func decision(_ item: ReviewItem) -> String {
        let reason = item.reason.map { ": \(Sanitized.text($0))" } ?? ""
        switch item.kind {
        case .conflict:
            return "The hub kept the first admission and refused the second: already checked in (single entry)."
        case .walkIn:
            if item.mark?.resolution == .merged { return "Merged: its check-ins now count for the registration." }
            return item.decision == "possible_duplicate"
                ? "Kept as a walk-in; the same e-mail as a registration: possibly the same person."
                : "Kept as a walk-in\(reason)."
        case .flaggedExit:
            return item.decision == CheckInFlag.exitWithoutEntry.rawValue
                ? "Recorded and flagged: an exit by someone the hub did not have inside."
                : "Recorded and flagged (\(item.decision))."
        case .refusal:
            let what = switch Decision.Kind(rawValue: item.decision) {
            case .revoked: "the ticket is revoked"
            case .notValidHere: "the ticket is not valid at this door"
            case .outsideWindow: "outside the ticket's time window"
            case .unknownCode: "the hub does not know this guest"
            case .alreadyCheckedIn: "already checked in"
            default: Sanitized.text(item.decision)
            }
            return "Refused: \(what)\(item.reason.map { " (\(Sanitized.text($0)))" } ?? "")."
        }
    }
}
