import CheckInCore
import HubAPI
import HubCore

// Every row the store reads, decoded once for both databases (``SQLRow``).

extension EventSummary {
    init(row: some SQLRow) throws {
        self.init(
            id: try row.text("id"), name: try row.text("name"), startsAt: try row.optionalTime("starts_at"), endsAt: try row.optionalTime("ends_at"),
            timeZone: try row.text("time_zone"), toleranceWindowMilliseconds: try row.integer("window_ms"),
            stationUndoMilliseconds: try row.integer("undo_ms"))
    }
}

extension StaffInfo {
    /// From `staff` columns (`id`, `email`, `name`, `role`), or the same under other names.
    init(row: some SQLRow, id: String = "id") throws {
        self.init(id: try row.text(id), email: try row.text("email"), name: try row.text("name"),
                  role: StaffRole(rawValue: try row.text("role")) ?? .staff)
    }
}

extension AccessType {
    init(row: some SQLRow) throws {
        self.init(id: try row.text("id"), name: try row.text("name"), reentry: try row.bool("reentry"),
                  validFrom: try row.optionalTime("valid_from"), validUntil: try row.optionalTime("valid_until"))
    }
}

extension TicketFacts {
    /// The guest columns of 0006_ticket_facts.sql.
    init(row: some SQLRow) throws {
        self.init(validFrom: try row.optionalTime("ticket_valid_from"), validUntil: try row.optionalTime("ticket_valid_until"),
                  attention: try row.optionalText("attention"), orderCode: try row.text("order_code"),
                  checkedInBefore: try row.optionalTime("checked_in_before"))
    }
}

extension Guest {
    init(row: some SQLRow) throws {
        self.init(id: try row.text("id"), code: TicketCode(stored: try row.text("code")), name: try row.text("name"),
                  email: try row.text("email"), company: try row.text("company"), accessTypeID: try row.text("access_type_id"),
                  revoked: try row.bool("revoked"), walkIn: try row.bool("walk_in"), facts: try TicketFacts(row: row))
    }
}

extension AuthenticatedSession {
    /// From ``SQLHubStore/sessionSelect``.
    init(row: some SQLRow) throws {
        self.init(sessionID: try row.text("session_id"), staff: try StaffInfo(row: row, id: "staff_id"),
                  deviceID: try row.optionalText("device_id"), stationName: try row.optionalText("station_name"),
                  endsAt: try row.optionalTime("ends_at"))
    }
}

extension SessionSummary {
    /// From a `sessions` row with its staff member's `email`.
    init(row: some SQLRow) throws {
        self.init(id: try row.text("id"), staffEmail: try row.text("email"), deviceID: try row.optionalText("device_id"),
                  stationName: try row.optionalText("station_name"), createdAt: try row.time("created_at"),
                  lastUsedAt: try row.time("last_used_at"), revoked: try row.optionalInteger("revoked_at") != nil)
    }
}

extension PreviousCheckIn {
    /// The columns `<prefix>by`, `<prefix>station`, `<prefix>device` and `<prefix>at`; `nil` without a time.
    init?(row: some SQLRow, prefix: String) throws {
        guard let at = try row.optionalTime(prefix + "at") else { return nil }
        self.init(by: try row.optionalText(prefix + "by") ?? "", station: try row.optionalText(prefix + "station") ?? "",
                  deviceID: try row.optionalText(prefix + "device") ?? "", at: at)
    }

    /// A check-in's own operator, station, device and scan time.
    init(movement row: some SQLRow) throws {
        self.init(by: try row.text("operator_name"), station: try row.text("station"), deviceID: try row.text("device_id"),
                  at: try row.time("scanned_at"))
    }
}

extension StoredCheckIn {
    init(row: some SQLRow) throws {
        let key = IdempotencyKey(deviceID: try row.text("device_id"), guestID: try row.text("guest_id"), scannedAt: try row.time("scanned_at"))
        self.init(
            upload: CheckInUpload(
                key: key, station: try row.text("station"), operatorName: try row.text("operator_name"),
                source: CheckInSource(rawValue: try row.text("source")) ?? .typed,
                direction: Direction(rawValue: try row.text("direction")) ?? .entry),
            result: CheckInResult(
                key: key, status: UploadStatus(rawValue: try row.text("status")) ?? .rejected,
                decision: Decision.Kind(rawValue: try row.text("decision")) ?? .unknownCode, reason: try row.optionalText("reason"),
                previous: try PreviousCheckIn(row: row, prefix: "prev_"),
                flag: try row.optionalText("flag").flatMap(CheckInFlag.init(rawValue:))),
            undone: try row.optionalInteger("undone_at") != nil)
    }
}

extension OrganizerAction {
    init(row: some SQLRow) throws {
        self.init(eventID: try row.optionalText("event_id"), actorID: try row.text("actor_id"), actorName: try row.text("actor_name"),
                  kind: OrganizerAction.Kind(rawValue: try row.text("kind")) ?? .eventEdited, subject: try row.text("subject"),
                  detail: try row.text("detail"), at: try row.time("at"))
    }
}

extension ReviewMark {
    /// From `review_marks` columns, under `prefix`; `nil` without a known resolution.
    init?(row: some SQLRow, prefix: String = "") throws {
        guard let resolution = try row.optionalText(prefix + "resolution").flatMap(Resolution.init(rawValue:)) else { return nil }
        self.init(resolution: resolution, actorID: try row.text(prefix + "actor_id"), actorName: try row.text(prefix + "actor_name"),
                  at: try row.time(prefix + "at"))
    }
}

extension ReviewGuest {
    /// The guest columns `<prefix>name`, `<prefix>code`, `<prefix>email` of ``ReviewSQL/items``.
    init(id: String, row: some SQLRow, prefix: String) throws {
        self.init(id: id, name: try row.optionalText(prefix + "name") ?? "", code: try row.optionalText(prefix + "code") ?? "",
                  email: try row.optionalText(prefix + "email") ?? "")
    }
}

extension ReviewItem {
    /// From ``ReviewSQL/items``; `nil` for a kind this release does not know.
    init?(row: some SQLRow) throws {
        guard let kind = Kind(rawValue: try row.text("kind")) else { return nil }
        let guestID = try row.text("guest_id")
        let first: ReviewUpload? = try row.optionalTime("first_at").map {
            ReviewUpload(deviceID: try row.optionalText("first_device") ?? "", guestID: guestID, at: $0,
                         station: try row.optionalText("first_station") ?? "", operatorName: try row.optionalText("first_by") ?? "")
        }
        self.init(
            kind: kind, subject: try row.text("subject"), guest: try ReviewGuest(id: guestID, row: row, prefix: "guest_"),
            upload: ReviewUpload(deviceID: try row.text("device_id"), guestID: guestID, at: try row.time("at_ms"),
                                 station: try row.text("station"), operatorName: try row.text("operator_name")),
            decision: try row.text("decision"), reason: try row.optionalText("reason"), first: first,
            firstUndone: try row.integer("first_undone") == 1,
            registration: try row.optionalText("reg_id").map { try ReviewGuest(id: $0, row: row, prefix: "reg_") },
            mark: try ReviewMark(row: row, prefix: "mark_"))
    }
}

extension GuestRecord {
    /// From ``GuestLookupSQL``'s columns and presence.
    init(row: some SQLRow) throws {
        self.init(guest: try Guest(row: row), entries: try row.int("entries"),
                  lastDirection: try row.optionalText("last_direction").flatMap(Direction.init(rawValue:)))
    }
}

extension GuestMovement {
    init(row: some SQLRow) throws {
        self.init(deviceID: try row.text("device_id"), station: try row.text("station"), operatorName: try row.text("operator_name"),
                  source: try row.text("source"), direction: try row.text("direction"), status: try row.text("status"),
                  decision: try row.text("decision"), reason: try row.optionalText("reason"), scannedAt: try row.time("scanned_at"),
                  receivedAt: try row.time("received_at"), undone: try row.integer("undone") != 0)
    }
}

extension StationContact {
    init(row: some SQLRow) throws {
        func part(_ prefix: String) throws -> StationPart? {
            guard let state = try row.optionalText(prefix + "_state") else { return nil }
            return StationPart(state: state, words: try row.optionalText(prefix + "_words") ?? "")
        }
        let report = StationReport(
            name: try row.text("name"), version: try row.text("version"), pending: try row.int("pending"), printer: try part("printer"),
            camera: try part("camera"), staffName: try row.text("staff_name"), stationTime: try row.time("station_time"))
        self.init(deviceID: try row.text("device_id"), report: report, receivedAt: try row.time("received_at"))
    }
}

extension AttendanceRecord {
    init(row: some SQLRow) throws {
        self.init(code: try row.text("code"), name: try row.text("name"), email: try row.text("email"), company: try row.text("company"),
                  accessType: try row.text("access_type"), walkIn: try row.bool("walk_in"), revoked: try row.bool("revoked"),
                  firstEntry: try row.optionalTime("first_at"), firstStation: try row.optionalText("first_station"),
                  firstOperator: try row.optionalText("first_operator"), entries: try row.int("entries"), lastExit: try row.optionalTime("last_exit"))
    }
}

extension HubLogEntry {
    init(row: some SQLRow) throws {
        self.init(at: try row.time("at"), kind: Kind(rawValue: try row.text("kind")) ?? .checkIn, outcome: try row.text("outcome"),
                  detail: try row.optionalText("detail") ?? "", guestID: try row.text("guest_id"), station: try row.text("station"),
                  deviceID: try row.text("device_id"), operatorName: try row.text("operator_name"), account: try row.text("account"),
                  scannedAt: try row.optionalTime("scanned_at"))
    }
}

extension RecentCheckIn {
    init(row: some SQLRow) throws {
        self.init(guestName: try row.text("guest_name"), station: try row.text("station"), operatorName: try row.text("operator_name"),
                  source: try row.text("source"), direction: try row.text("direction"), scannedAt: try row.time("scanned_at"))
    }
}

extension WalkInReview {
    init(row: some SQLRow) throws {
        self.init(guestID: try row.text("guest_id"), requestedAccessTypeID: try row.text("requested_access_type_id"),
                  accessTypeID: try row.text("access_type_id"), review: try row.text("review"), deviceID: try row.text("device_id"),
                  station: try row.text("station"), operatorName: try row.text("operator_name"), uploadedBy: try row.text("uploaded_by"),
                  createdAt: try row.time("created_at"))
    }
}
