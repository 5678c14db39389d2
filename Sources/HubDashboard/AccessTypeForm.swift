import CheckInCore
import Foundation
import HubServer

/// The access type form of the event page: single entry or re-entry, and an optional validity
/// window typed in the event's time zone. Checked into an ``CheckInCore/AccessType`` or into
/// what to correct. No I/O.
struct AccessTypeForm: Sendable, Hashable {
    /// Empty for a new type: derived from the name, as roster imports derive it.
    var id = ""
    var name = ""
    var reentry = false
    var validFrom = ""
    var validUntil = ""

    init() {}

    init(_ form: WebForm) {
        id = (form["id"] ?? "").trimmingCharacters(in: .whitespaces)
        name = form["name"] ?? ""
        reentry = form["reentry"] != nil
        validFrom = form["valid_from"] ?? ""
        validUntil = form["valid_until"] ?? ""
    }

    func decide(zone: TimeZone) -> Result<AccessType, EventForm.Problems> {
        var problems: [String] = []
        let name = Sanitized.text(name).trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { problems.append("Give the access type a name.") }
        if name.count > EventForm.nameCharacters { problems.append("The name may have at most \(EventForm.nameCharacters) characters.") }
        let from = date(validFrom, "“valid from”", zone, &problems), until = date(validUntil, "“valid until”", zone, &problems)
        if let from, let until, until < from { problems.append("“Valid until” is before “valid from”: check both.") }
        let id = id.isEmpty ? AccessType.identifier(forName: name) : id
        if id.utf8.count > 100 || id.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
            problems.append("That access type cannot be changed here.")
        }
        guard problems.isEmpty else { return .failure(EventForm.Problems(messages: problems)) }
        return .success(AccessType(id: id, name: name, reentry: reentry, validFrom: from, validUntil: until))
    }

    private func date(_ text: String, _ what: String, _ zone: TimeZone, _ problems: inout [String]) -> Timestamp? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard let value = LocalDateTime.parse(text, in: zone) else {
            problems.append("\(what) “\(EventForm.shown(text))” is no date and time: give one like 2026-11-24T18:00.")
            return nil
        }
        return value
    }
}
