import NIOHTTP1

extension PretixClient {
    /// The organizer's events this device may see.
    public func events() async throws(PretixError) -> [PretixEvent] {
        try await all(PretixEvent.self, try organizerPath("events/"), what: "the events")
    }

    /// One event in detail, with the keys its signed tickets verify against.
    public func event(_ slug: String) async throws(PretixError) -> PretixEvent {
        let response = try await exchange(.GET, try eventPath(slug, ""))
        guard response.status == 200 else { throw failure(response, doing: "reading event \(slug)") }
        return try decode(PretixEvent.self, from: response, what: "event \(slug)")
    }

    /// The event's products and their variations.
    public func items(event: String) async throws(PretixError) -> [PretixItem] {
        try await all(PretixItem.self, try eventPath(event, "items/"), what: "the products")
    }

    /// The event's questions (those asked or shown at the door among them).
    public func questions(event: String) async throws(PretixError) -> [PretixQuestion] {
        try await all(PretixQuestion.self, try eventPath(event, "questions/"), what: "the questions")
    }

    /// The event's check-in lists (without their counts, which a door does not need).
    public func checkInLists(event: String) async throws(PretixError) -> [PretixCheckInList] {
        try await all(PretixCheckInList.self, try eventPath(event, "checkinlists/"),
                      query: [("exclude", "checkin_count"), ("exclude", "position_count")], what: "the check-in lists")
    }

    /// Secrets pretix revoked (replaced signed tickets), newest first; only those revoked at or
    /// after `createdSince` when given (a delta).
    public func revokedSecrets(event: String, createdSince: PretixTime? = nil) async throws(PretixError) -> [PretixSecretEntry] {
        var query = [("ordering", "-created")]
        if let createdSince { query.append(("created_since", createdSince.text)) }
        return try await all(PretixSecretEntry.self, try eventPath(event, "revokedsecrets/"), query: query, what: "the revoked secrets")
    }

    /// Secrets pretix blocked or unblocked, newest change first; only changes at or after
    /// `updatedSince` when given. An entry with `blocked == false` lifts an earlier block.
    public func blockedSecrets(event: String, updatedSince: PretixTime? = nil) async throws(PretixError) -> [PretixSecretEntry] {
        var query = [("ordering", "-updated")]
        if let updatedSince { query.append(("updated_since", updatedSince.text)) }
        return try await all(PretixSecretEntry.self, try eventPath(event, "blockedsecrets/"), query: query, what: "the blocked secrets")
    }
}
