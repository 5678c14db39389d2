import CheckInCore
import Foundation
import HTTPTypes
import HubAPI

/// What an upload batch must satisfy before anything of it is stored. A violation refuses the
/// whole batch with a 422 naming the field (`items.N.…`), so the station knows exactly which
/// entry to look at; nothing is half-recorded.
///
/// Checked in two steps, because a station treats them differently: the shape of each item
/// (ids, lengths, the walk-in's fields: content a station cannot fix by waiting) and then the
/// times (``plausibleTimes(_:now:)``: a clock fault, to be fixed and retried).
enum UploadValidation {
    static func checkIns(_ items: [CheckInUpload]) throws {
        for (index, item) in items.enumerated() {
            try keyAndAttribution(item.key, station: item.station, operatorName: item.operatorName, path: "items.\(index)")
        }
    }

    static func undos(_ items: [UndoUpload]) throws {
        for (index, item) in items.enumerated() {
            try keyAndAttribution(item.key, station: item.station, operatorName: item.operatorName, path: "items.\(index)")
            if let reason = item.reason { try text(reason, "items.\(index).reason", UploadLimits.reasonCharacters) }
        }
    }

    /// Walk-ins are checked like imported roster rows: they are replicated to every station.
    static func walkIns(_ items: [WalkInUpload]) throws {
        for (index, item) in items.enumerated() {
            let path = "items.\(index)"
            try identifier(item.guestID, path + ".guestID", UploadLimits.guestIDCharacters)
            try identifier(item.deviceID, path + ".deviceID", UploadLimits.deviceIDCharacters)
            guard !item.name.trimmedWhitespace().isEmpty else { throw HubProblem.invalid(path + ".name", "Enter the guest's name.") }
            try text(item.name, path + ".name", UploadLimits.nameCharacters)
            try text(item.email, path + ".email", UploadLimits.emailCharacters)
            if !item.email.isEmpty, !EmailAddress.isPlausible(item.email) {
                throw HubProblem.invalid(path + ".email", "Not a valid e-mail address; send it empty if unknown.")
            }
            try text(item.company, path + ".company", UploadLimits.companyCharacters)
            guard WalkInCode.isAcceptable(item.code) else {
                throw HubProblem.invalid(
                    path + ".code",
                    "A ticket code is 1 to \(TicketCode.maximumLength) printable characters, without spaces or control characters.")
            }
            try identifier(item.accessTypeID, path + ".accessTypeID", UploadLimits.accessTypeIDCharacters)
            try text(item.station, path + ".station", UploadLimits.stationCharacters)
            try text(item.operatorName, path + ".operatorName", UploadLimits.operatorNameCharacters)
        }
    }

    /// Refuses the batch (422, problem type ``CheckInCore/PlausibleTime/implausibleTimeProblemType``)
    /// when a time lies outside ``CheckInCore/PlausibleTime`` at the hub's clock `now`.
    static func plausibleTimes(_ times: [(path: String, time: Timestamp)], now: Timestamp) throws {
        for (path, time) in times where !PlausibleTime.contains(time, now: now) {
            throw HubProblem(
                .unprocessableContent, "Implausible time",
                detail: "\(path) is \(time.iso8601), outside what the hub believes (from \(PlausibleTime.earliest.iso8601) to 24 h after "
                    + "its clock, now \(now.iso8601)). Set the station's clock (network time) and upload again; keep the entry queued.",
                field: path, type: PlausibleTime.implausibleTimeProblemType)
        }
    }

    /// A device id, guest id or access type id: non-empty, within `limit`, no `/` (ids are
    /// joined with `/` in idempotency keys) and no control characters.
    static func identifier(_ value: String, _ path: String, _ limit: Int) throws {
        guard !value.isEmpty, !exceeds(value, limit), !value.contains("/"), !value.unicodeScalars.contains(where: \.isControl) else {
            throw HubProblem.invalid(path, "An id of 1 to \(limit) characters, without '/' or control characters.")
        }
    }

    /// The key and the station/operator an item reports: common to check-ins and undos.
    private static func keyAndAttribution(_ key: IdempotencyKey, station: String, operatorName: String, path: String) throws {
        try identifier(key.deviceID, path + ".key.deviceID", UploadLimits.deviceIDCharacters)
        try identifier(key.guestID, path + ".key.guestID", UploadLimits.guestIDCharacters)
        try text(station, path + ".station", UploadLimits.stationCharacters)
        try text(operatorName, path + ".operatorName", UploadLimits.operatorNameCharacters)
    }

    /// Text within `limit` characters and without NUL: SQLite (through GRDB) keeps a string only
    /// up to its first NUL and PostgreSQL refuses one, so the hub could store neither faithfully.
    static func text(_ value: String, _ path: String, _ limit: Int) throws {
        guard !exceeds(value, limit) else { throw HubProblem.invalid(path, "At most \(limit) characters.") }
        guard !value.utf8.contains(0) else { throw HubProblem.invalid(path, "Text may not contain NUL characters (U+0000).") }
    }

    /// Whether `value` has more than `limit` characters; the byte count settles most cases
    /// without walking the grapheme clusters of a multi-megabyte string.
    static func exceeds(_ value: String, _ limit: Int) -> Bool {
        let bytes = value.utf8.count
        if bytes <= limit { return false }
        if bytes > limit * 64 { return true }  // no character is that long in anything a person types
        return value.count > limit
    }
}

/// The rule for a walk-in's ticket code: what a station may print on a badge and every station
/// must be able to scan back.
enum WalkInCode {
    static func isAcceptable(_ code: String) -> Bool {
        guard !code.isEmpty, code.unicodeScalars.count <= TicketCode.maximumLength else { return false }
        let printable = code.unicodeScalars.allSatisfy { scalar in
            if scalar.properties.isWhitespace { return false }
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
            default: return true
            }
        }
        // And already normalized: a scanner reading the badge must find exactly this code.
        return printable && TicketCode(normalizing: code, caseInsensitive: false)?.value == code
    }
}
