import CheckInCore
import Foundation
import HubAPI
import HubServer

/// The event form of the dashboard (create and edit), as typed: checked into an
/// ``HubAPI/EventSummary`` or into what to correct, in words, field by field. No I/O.
struct EventForm: Sendable, Hashable {
    var name = ""
    /// `datetime-local` values, in ``timeZone``.
    var starts = ""
    var ends = ""
    var timeZone = "UTC"
    var windowSeconds = "30"
    var undoSeconds = "300"

    /// The same bounds as `checkin-hub event create`.
    static let windowRange: ClosedRange<Int64> = 0...86_400
    static let undoRange: ClosedRange<Int64> = 0...604_800
    static let nameCharacters = 200

    /// What to correct, by field, in the order of the form.
    struct Problems: Error, Sendable, Hashable {
        var messages: [String]
    }

    init() {}

    init(_ form: WebForm) {
        name = form["name"] ?? ""
        starts = form["starts"] ?? ""
        ends = form["ends"] ?? ""
        timeZone = (form["time_zone"] ?? "").trimmingCharacters(in: .whitespaces)
        windowSeconds = form["window_seconds"] ?? ""
        undoSeconds = form["undo_seconds"] ?? ""
    }

    /// The form showing `event`, its dates in its own time zone.
    init(_ event: EventSummary) {
        let zone = TimeZone(identifier: event.timeZone) ?? TimeZone(identifier: "UTC")!
        name = event.name
        starts = LocalDateTime.format(event.startsAt, in: zone)
        ends = LocalDateTime.format(event.endsAt, in: zone)
        timeZone = event.timeZone
        windowSeconds = String(event.toleranceWindowMilliseconds / 1000)
        undoSeconds = String(event.stationUndoMilliseconds / 1000)
    }

    /// The event with id `id`, or every problem of the form.
    func decide(id: String) -> Result<EventSummary, Problems> {
        var problems: [String] = []
        let name = Sanitized.text(name).trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { problems.append("Give the event a name.") }
        if name.count > Self.nameCharacters { problems.append("The name may have at most \(Self.nameCharacters) characters.") }
        let zone = Self.zone(timeZone)
        if zone == nil {
            problems.append("“\(Self.shown(timeZone))” is no time zone: give an IANA name such as Europe/Berlin or America/New_York.")
        }
        // Dates are read even with a wrong zone (any one zone orders them): every problem at once.
        let reading = zone ?? TimeZone(identifier: "UTC")!
        let startsAt = date(starts, "start", reading, &problems), endsAt = date(ends, "end", reading, &problems)
        if let startsAt, let endsAt, endsAt < startsAt { problems.append("The end is before the start: check both dates.") }
        let window = Self.seconds(windowSeconds, Self.windowRange, "The tolerance window", &problems)
        let undo = Self.seconds(undoSeconds, Self.undoRange, "The station undo time", &problems)
        guard problems.isEmpty, let zone, let window, let undo else { return .failure(Problems(messages: problems)) }
        return .success(EventSummary(
            id: id, name: name, startsAt: startsAt, endsAt: endsAt, timeZone: zone.identifier,
            toleranceWindowMilliseconds: window * 1000, stationUndoMilliseconds: undo * 1000))
    }

    /// Only names of the IANA database (`TimeZone(identifier:)` also takes abbreviations and
    /// offsets such as `GMT+2`, which are no venue's zone).
    static func zone(_ text: String) -> TimeZone? {
        guard !text.isEmpty, text.utf8.count <= 64, TimeZone.knownTimeZoneIdentifiers.contains(text) || text == "UTC" else { return nil }
        return TimeZone(identifier: text)
    }

    private func date(_ text: String, _ what: String, _ zone: TimeZone, _ problems: inout [String]) -> Timestamp? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard let value = LocalDateTime.parse(text, in: zone) else {
            problems.append("The \(what) “\(Self.shown(text))” is no date and time: give one like 2026-11-24T18:00.")
            return nil
        }
        return value
    }

    static func seconds(_ text: String, _ range: ClosedRange<Int64>, _ what: String, _ problems: inout [String]) -> Int64? {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            problems.append("\(what) is a whole number of seconds from \(range.lowerBound) to \(range.upperBound).")
            return nil
        }
        return value
    }

    /// Typed text quoted back in a message: without control characters, and short.
    static func shown(_ text: String) -> String {
        let clean = Sanitized.text(text)
        return clean.count > 40 ? String(clean.prefix(40)) + "…" : clean
    }
}
