import CheckInCore
import Foundation
import KioskStore
import Logging
import PretixClient
import SyncSchedule

/// Keeps a station's roster current from one pretix check-in list and sends its check-ins back
/// to pretix, once each, in the order they were made.
///
/// A pull downloads the event's orders page by page (everything the first time, then pretix's
/// changes since the last download), each page applied with its cursor in one transaction, so a
/// download cut off anywhere resumes after the last page kept. A push sends the outbox's changes
/// for this list as pretixSCAN's queued uploads: forced, with their original time and a nonce
/// made from the check-in's key, so pretix records each once however often it is sent; pretix's
/// own refusal is final and listed among refused uploads; anything else stays queued.
public actor PretixSync {
    public nonisolated let database: KioskDatabase
    public nonisolated let link: PretixLink
    /// What this station is now (its software version above all): pretix is told once it differs
    /// from what the link says pretix was last told (``keepDeviceCurrent(_:)``).
    let identity: PretixDeviceIdentity
    private var deviceCurrent = false
    /// Wakes the station's pretix loop when a check-in is recorded (``nudge()``).
    public nonisolated let wakeup = SyncWakeup()
    /// Asks pretix before the door decides, where its word is needed or wanted.
    public nonisolated let door: PretixDoor
    let logger: Logger
    /// The catalog, read at the first pull of this process (products change rarely; a restart reads it again).
    private var roster: PretixRoster?
    /// The event's signed-ticket keys and the list, read with the catalog (no keys: no signed tickets).
    private var signedCatalog: (keys: [String], list: PretixCheckInList)?
    /// A pull or push is under way: the loop's and the operator's (F7) take turns, so two pulls
    /// never apply pages of one cursor out of order.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private func oneAtATime<T>(_ body: () async throws(PretixSyncError) -> T) async throws(PretixSyncError) -> T {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            busy = false
            let next = waiting
            waiting = []
            next.forEach { $0.resume() }
        }
        return try await body()
    }

    public init(database: KioskDatabase, link: PretixLink, identity: PretixDeviceIdentity = .thisStation,
                logger: Logger = Logger(label: "kiosk.pretix")) {
        self.database = database
        self.link = link
        self.identity = identity
        self.logger = logger
        door = PretixDoor(database: database, link: link, logger: logger)
    }

    /// A change was recorded: the station's loop sends it now rather than at its next round.
    public nonisolated func nudge() { wakeup.nudge() }

    /// The link kept on this station, or ``PretixSyncError/notConnected``.
    public static func linked(_ database: KioskDatabase) throws(PretixSyncError) -> PretixSync {
        guard let link = try PretixLinkFile<PretixLink>(database: database).load() else { throw .notConnected }
        return PretixSync(database: database, link: link)
    }

    // MARK: Connect

    /// Makes this station a pretix device with the organizer's initialization token (or takes
    /// the device it already is: `token` `nil`), chooses the event and check-in list, and keeps
    /// the link sealed. The station's roster becomes the list's (a first pull fills it); changes
    /// recorded before stay queued for where they belong.
    /// - Parameters:
    ///   - server: pretix's address; `nil` with no token: the one the device belongs to.
    ///   - event: the event's slug; `nil` takes the only one the device sees.
    ///   - list: the check-in list; `nil` takes the event's only one.
    ///   - mode: whose word the door takes first; `nil` keeps the station's (local first at first).
    ///   - onlineBudgetMilliseconds: how long a scan waits for pretix; `nil` keeps the station's (1 s at first).
    public static func connect(database: KioskDatabase, server: String?, token: String?, event: String?, list: Int?,
                               identity: PretixDeviceIdentity, mode: PretixDecisionMode? = nil,
                               onlineBudgetMilliseconds: Int? = nil) async throws(PretixSyncError) -> PretixLink {
        let before = try? PretixLinkFile<PretixLink>(database: database).load()
        let deviceFile = PretixLinkFile<PretixDeviceRecord>(database: database)
        let record: PretixDeviceRecord
        if let token {
            guard let server else { throw .noDevice }
            do {
                let device = try await PretixClient(server: PretixClient.parseServerURL(server)).initialize(token: token, identity: identity)
                record = PretixDeviceRecord(server: server, device: device)
            } catch { throw .pretix(error) }
            // The token is spent now: the device is kept before anything else can fail.
            try deviceFile.save(record)
        } else {
            guard let kept = try deviceFile.load(), server.map({ trimmed($0) == trimmed(kept.server) }) ?? true else { throw .noDevice }
            record = kept
        }
        let client: PretixClient
        do { client = try PretixClient(server: PretixClient.parseServerURL(record.server), device: record.device) } catch { throw .pretix(error) }
        // With a kept device, what pretix was last told is not known here: the first pull tells it again.
        return try await choose(client: client, server: record.server, device: record.device, event: event, list: list, database: database,
                                identity: token == nil ? nil : identity, mode: mode ?? before?.mode,
                                onlineBudgetMilliseconds: onlineBudgetMilliseconds ?? before?.onlineBudgetMilliseconds)
    }

    private static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    static func choose(client: PretixClient, server: String, device: PretixDevice, event: String?, list: Int?,
                       database: KioskDatabase, identity: PretixDeviceIdentity?, mode: PretixDecisionMode? = nil,
                       onlineBudgetMilliseconds: Int? = nil) async throws(PretixSyncError) -> PretixLink {
        let events: [PretixEvent]
        do { events = try await client.events() } catch { throw .pretix(error) }
        let chosen: PretixEvent
        if let event {
            guard let found = events.first(where: { $0.slug == event }) else { throw .noSuchEvent(event, known: events.map(\.slug)) }
            chosen = found
        } else {
            guard events.count == 1, let only = events.first else {
                throw .noSuchEvent("(none chosen: give --event)", known: events.map(\.slug))
            }
            chosen = only
        }
        let lists: [PretixCheckInList]
        do { lists = try await client.checkInLists(event: chosen.slug) } catch { throw .pretix(error) }
        let choices = lists.map { (id: $0.id, name: $0.name) }
        let checkInList: PretixCheckInList
        if let list {
            guard let found = lists.first(where: { $0.id == list }) else { throw .chooseList(event: chosen.slug, lists: choices, asked: list) }
            checkInList = found
        } else {
            guard lists.count == 1, let only = lists.first else { throw .chooseList(event: chosen.slug, lists: choices, asked: nil) }
            checkInList = only
        }
        let questions: [PretixQuestion]
        do { questions = try await client.questions(event: chosen.slug) } catch { throw .pretix(error) }
        var link = PretixLink(server: server, device: device, event: chosen.slug, eventName: chosen.name.text(),
                              list: checkInList.id, listName: checkInList.name, identity: identity)
        link.mode = mode
        link.onlineBudgetMilliseconds = onlineBudgetMilliseconds
        link.onlineNeeds = PretixOnlineNeeds(list: checkInList)
        link.listRules = PretixListRules(list: checkInList, event: chosen)
        link.doorQuestions = PretixQuestion.askedAtTheDoor(questions)
        try PretixLinkFile<PretixLink>(database: database).save(link)
        // Another event's keys and withdrawn secrets go: the first pull reads this event's.
        PretixLinkFile<PretixSignedTickets>(database: database).remove()
        do {
            // pretix's secrets are case-sensitive (signed ones are base64): codes compare as scanned.
            try await database.setSetting(.caseInsensitiveCodes, "0")
            try await database.setSetting(.pretixNotice, nil)
            try await database.setSetting(.hubURL, link.destination.hubURL)
            try await database.selectSyncEvent(id: link.eventID, name: "\(link.eventName) – \(link.listName)",
                                               toleranceWindowMilliseconds: nil, endsAt: chosen.dateTo?.timestamp)
        } catch { throw .storage(error) }
        return link
    }

    // MARK: Device

    /// Tells pretix this station's software and hardware (`device/update`) when they differ from
    /// what it was last told (a new version installed), once per process, and keeps pretix's
    /// answer (the device's name, gate and profile as they are now) in the link.
    /// - Returns: whether pretix was told now.
    func keepDeviceCurrent(_ client: PretixClient) async throws(PretixSyncError) -> Bool {
        guard !deviceCurrent else { return false }
        let file = PretixLinkFile<PretixLink>(database: database)
        // A disconnect removed the file meanwhile: nothing to keep, and nothing brought back.
        guard var kept = try file.load() else { return false }
        let told = kept.identity != identity
        if told {
            let device: PretixDevice
            do { device = try await client.update(identity: identity) } catch { throw .pretix(error) }
            kept.device.name = device.name
            kept.device.gate = device.gate
            kept.device.securityProfile = device.securityProfile
            kept.identity = identity
            try file.save(kept)
            logger.notice("told pretix this station's version", metadata: ["version": "\(identity.softwareVersion)"])
        }
        deviceCurrent = true
        return told
    }

    // MARK: Pull

    /// What a pull brought.
    public struct PullReport: Sendable, Equatable {
        /// Orders in the pages downloaded (all of them the first time, the changed ones after).
        public var orders: Int
        /// Whether the roster is complete now (the download reached its last page).
        public var complete: Bool
        /// The version pretix was told this station runs now (`device/update`), when it was.
        public var toldVersion: String? = nil
    }

    /// Downloads the orders pretix has for the event since the last pull and applies them.
    /// - Parameter progress: orders applied so far and pretix's count for this download.
    public func pull(progress: (@Sendable (Int, Int) -> Void)? = nil) async throws(PretixSyncError) -> PullReport {
        try await oneAtATime { () async throws(PretixSyncError) in try await pullAlone(progress: progress) }
    }

    private func pullAlone(progress: (@Sendable (Int, Int) -> Void)?) async throws(PretixSyncError) -> PullReport {
        let client: PretixClient
        do { client = try link.client() } catch { throw .pretix(error) }
        let told = try await keepDeviceCurrent(client)
        let roster = try await catalog(client)
        await refreshSignedTickets(client)
        guard link.device.securityProfile.downloadsOrders else {
            // pretix's "online, no orders" and kiosk profiles: no orders on the station, only the
            // products (the access types of the signed tickets it verifies); pretix checks the rest per scan.
            do {
                try await database.applyRoster([RosterDelta(accessTypes: roster.accessTypes, nextCursor: "")], eventID: link.eventID, complete: true,
                                               movesCursor: false)
            } catch { throw .storage(error) }
            return PullReport(orders: 0, complete: true, toldVersion: told ? identity.softwareVersion : nil)
        }
        var cursor = PretixOrderCursor.fresh
        do {
            if let stored = try database.syncEvent(), stored.eventID == link.eventID, let text = stored.cursor,
               let decoded = try? JSONDecoder().decode(PretixOrderCursor.self, from: Data(text.utf8)) {
                cursor = decoded
            }
        } catch { throw .storage(error) }
        var orders = 0
        var first = true
        // The next page is asked for while this one is stored: the station's own work (decoding,
        // sealing, writing) hides behind pretix's time to answer. Pages are still stored one by
        // one, in order, each with its cursor.
        var coming = PagePrefetch(client: client, event: link.event, cursor: cursor, next: nil)
        defer { coming.cancel() }
        while true {
            let page = try await coming.page()
            if page.next != nil { coming = PagePrefetch(client: client, event: link.event, cursor: page.cursor, next: page.next) }
            let text = String(decoding: (try? JSONEncoder().encode(page.cursor)) ?? Data(), as: UTF8.self)
            do {
                try await database.applyRoster([roster.delta(page.orders, cursor: text, withAccessTypes: first)], eventID: link.eventID,
                                               complete: page.next == nil)
            } catch { throw .storage(error) }
            orders += page.orders.count
            progress?(orders, page.count)
            (cursor, first) = (page.cursor, false)
            if page.next == nil { break }
        }
        return PullReport(orders: orders, complete: cursor.isComplete, toldVersion: told ? identity.softwareVersion : nil)
    }

    private func catalog(_ client: PretixClient) async throws(PretixSyncError) -> PretixRoster {
        if let roster { return roster }
        do {
            guard let list = try await client.checkInLists(event: link.event).first(where: { $0.id == link.list }) else {
                throw PretixSyncError.chooseList(event: link.event, lists: [], asked: link.list)
            }
            let questions = try await client.questions(event: link.event)
            let made = PretixRoster(list: list, items: try await client.items(event: link.event), deviceID: link.device.deviceID, questions: questions)
            let event = try await client.event(link.event)
            try keep(PretixOnlineNeeds(list: list), rules: PretixListRules(list: list, event: event), questions: PretixQuestion.askedAtTheDoor(questions))
            signedCatalog = (event.validKeys?.pretixSig1 ?? [], list)
            roster = made
            return made
        } catch let error as PretixError {
            throw .pretix(error)
        } catch let error as PretixSyncError {
            throw error
        } catch {
            throw .pretix(.malformed(String(describing: error)))
        }
    }

    /// What only pretix decides at the list, the list's rules and the questions asked at the
    /// door, for the door now and for the next start (kept with the link, so a station started
    /// offline knows them).
    private func keep(_ needs: PretixOnlineNeeds, rules: PretixListRules?, questions: [Int: [DoorQuestion]]) throws(PretixSyncError) {
        door.update(needs)
        door.updateRules(rules)
        door.update(questions)
        let file = PretixLinkFile<PretixLink>(database: database)
        guard var kept = try file.load(), kept.onlineNeeds != needs || kept.listRules != rules || kept.doorQuestions != questions else { return }
        kept.onlineNeeds = needs
        kept.listRules = rules
        kept.doorQuestions = questions
        try file.save(kept)
        if needs.listRules {
            logger.notice("pretix decides entries at this list itself: its rules are beyond this station")
        }
    }

    /// Keeps what the door needs to admit signed tickets offline (``PretixSignedTickets``): the
    /// event's keys and the list, and the secrets pretix revoked or blocked since the last pull.
    /// When pretix does not give the withdrawn secrets (an older pretix, a failure), the station
    /// keeps those it has and says so in its log; the download goes on.
    private func refreshSignedTickets(_ client: PretixClient) async {
        let file = PretixLinkFile<PretixSignedTickets>(database: database)
        guard let (keys, list) = signedCatalog, !keys.isEmpty else {
            if file.exists { file.remove() }
            door.update(nil as PretixSignedTickets?)
            return
        }
        let kept = (try? file.load()) ?? nil
        var tickets = kept?.with(keys: keys, list: list) ?? PretixSignedTickets(keys: keys, list: list)
        do {
            tickets.take(revoked: try await client.revokedSecrets(event: link.event, createdSince: tickets.revokedSince))
            tickets.take(blocked: try await client.blockedSecrets(event: link.event, updatedSince: tickets.blockedSince))
        } catch {
            logger.warning("pretix's revoked and blocked secrets could not be read: the station keeps those it has",
                           metadata: ["error": "\(error)"])
        }
        if tickets != kept {
            do { try file.save(tickets) } catch {
                logger.error("the signed-ticket keys could not be kept: a restart without pretix admits no ticket sold since the last download",
                             metadata: ["error": "\(error)"])
            }
        }
        door.update(tickets)
    }

    // MARK: Push

    /// What a push did.
    public struct PushReport: Sendable, Equatable {
        /// Changes pretix recorded (or had already).
        public var recorded: Int
        /// Changes pretix refused for good: listed among refused uploads with pretix's reason.
        public var refused: Int
        /// Scans the door refused, sent for pretix's list of failed check-ins.
        public var reported: Int = 0
        /// Badges this station printed, sent for pretix's print log.
        public var badges: Int = 0
    }

    /// Sends this list's queued changes to pretix, oldest first, until none is left or pretix
    /// cannot be reached (what was answered until then is kept; the rest stays queued).
    public func push() async throws(PretixSyncError) -> PushReport {
        try await oneAtATime { () async throws(PretixSyncError) in try await pushAlone() }
    }

    private func pushAlone() async throws(PretixSyncError) -> PushReport {
        let client: PretixClient
        do { client = try link.client() } catch { throw .pretix(error) }
        var report = PushReport(recorded: 0, refused: 0)
        while true {
            let entries: [OutboxEntry]
            do { entries = try await database.outbox.uploadableOutbox(for: link.destination, limit: 50) } catch { throw .storage(error) }
            if entries.isEmpty { return report }
            var results: [OutboxResult] = []
            var failure: PretixSyncError?
            for entry in entries {
                do {
                    let outcome = try await send(entry, client)
                    results.append(OutboxResult(id: entry.id, outcome: outcome))
                    if case .success(.refusal) = entry.change {
                        report.reported += 1
                    } else if case .success(.badgePrinted) = entry.change {
                        report.badges += 1
                    } else if case .accepted = outcome {
                        report.recorded += 1
                    } else {
                        report.refused += 1
                    }
                } catch {
                    failure = error
                    break
                }
            }
            do { try await database.outbox.applyOutboxOutcomes(results) } catch { throw .storage(error) }
            if let failure { throw failure }
        }
    }

    /// One queued change sent to pretix: its outcome for the outbox.
    private func send(_ entry: OutboxEntry, _ client: PretixClient) async throws(PretixSyncError) -> OutboxOutcome {
        let change: OutboxChange
        switch entry.change {
        case .success(let read): change = read
        case .failure(let unreadable): return .rejected(reason: unreadable.reason, previous: nil)
        }
        switch change {
        case .checkIn(let checkIn):
            let scan = PretixScan(secret: checkIn.guestID, type: checkIn.direction == .exit ? .exit : .entry,
                                  nonce: Self.nonce(checkIn.key), datetime: PretixTime(checkIn.scannedAt), answers: checkIn.answers ?? [:])
            let result: PretixUploadResult
            do { result = try await client.upload(scan, event: link.event, list: link.list) } catch { throw .pretix(error) }
            switch result {
            case .recorded: return .accepted
            case .refused(let reason, let explanation):
                return .rejected(reason: "pretix refused it: " + (explanation ?? reason.description), previous: nil)
            }
        case .walkIn:
            return .rejected(reason: "pretix takes no walk-ins from a station: sell the ticket in pretix (the guest stays admitted here)", previous: nil)
        case .undo(let undo):
            let result: PretixAnnulResult
            do { result = try await client.annul(nonce: Self.nonce(undo.key), lists: [link.list], datetime: PretixTime(undo.undoneAt)) } catch {
                throw .pretix(error)
            }
            switch result {
            case .annulled: return .accepted
            case .unknownNonce: return .rejected(reason: "pretix has no such check-in of this station to annul", previous: nil)
            case .refused(let words):
                return .rejected(reason: "pretix did not annul it (\(words)): undo the check-in in pretix's back office", previous: nil)
            }
        case .refusal(let refusal):
            let nonce = Self.nonce(refusal.ref)
            let failed = PretixFailedCheckIn(scanned: refusal.code, reason: Self.reason(refusal), datetime: PretixTime(refusal.scannedAt),
                                             type: refusal.direction == .exit ? .exit : .entry, nonce: nonce,
                                             item: refusal.accessTypeID.flatMap(PretixRoster.item(accessTypeID:)))
            let result: PretixSideCallResult
            do { result = try await client.upload(failed, event: link.event, list: link.list, idempotencyKey: nonce) } catch { throw .pretix(error) }
            // pretix's list of failed check-ins is a report: what it will not take (a 4xx) is
            // dropped, as pretixSCAN does, rather than listed among the door's refused uploads.
            if case .refused(let status, let detail) = result {
                logger.warning("pretix did not take a refused scan for its report", metadata: ["status": "\(status)", "detail": "\(detail)"])
            }
            return .accepted
        case .badgePrinted(let badge):
            // A guest pretix did not make (none here, on a pretix list) has nowhere to be logged.
            guard let position = badge.shopTicketID.flatMap({ Int($0) }) else { return .accepted }
            let result: PretixSideCallResult
            do {
                result = try await client.uploadPrintLog(position: position, event: link.event, datetime: PretixTime(badge.printedAt),
                                                         idempotencyKey: Self.nonce(badge.ref))
            } catch { throw .pretix(error) }
            if case .refused(let status, let detail) = result {
                logger.warning("pretix did not take a printed badge for its print log", metadata: ["status": "\(status)", "detail": "\(detail)"])
            }
            return .accepted
        }
    }

    /// pretix's reason for a scan this station refused.
    static func reason(_ refusal: RefusedScan) -> PretixReason {
        switch refusal.decision {
        case .unknownCode: .invalid
        case .notValidHere: refusal.ticketRefusal == .otherDate ? .invalid : .product
        case .outsideWindow: .invalidTime
        case .alreadyCheckedIn: .alreadyRedeemed
        case .unpaid: .unpaid
        case .unapproved: .unapproved
        case .revoked:
            switch refusal.ticketRefusal {
            case .blocked: .blocked
            case .unapproved: .unapproved
            case .unpaid: .unpaid
            case .canceled, .expired: .canceled
            case .product: .product
            case .otherDate: .invalid
            case nil: .revoked
            }
        case .listRules: .rules
        case .questions: .incomplete
        // Turned away because pretix could not be asked: pretix's own word for a failure of its check.
        case .needsOnline, .admitted, .duplicate: .error
        }
    }

    /// The scan's nonce: its check-in key (`device/guest/ms`), the same for every attempt and
    /// for its undo.
    static func nonce(_ key: IdempotencyKey) -> PretixNonce { nonce(key.description) }

    /// A nonce made from a change's unique text (a refusal's ref), the same for every attempt.
    static func nonce(_ unique: String) -> PretixNonce {
        let text = unique.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? String($0) : "_" }.joined()
        return PretixNonce(String(text.suffix(190))) ?? PretixNonce.random()
    }

    // MARK: Ending the link

    /// How the link ended.
    public enum Ending: Sendable, Equatable {
        /// pretix revoked the device (an organizer's choice, or a lost box).
        case revokedInPretix
        /// `kiosk pretix disconnect` on this station.
        case disconnected
    }

    /// Ends the link: the list's guest data leaves the station (overwritten, as at a hub
    /// sign-out), the link and device files go, and what the station admitted stays for the
    /// organizer's audit. What is still queued for pretix stays queued but has nowhere to go.
    /// - Returns: the words the station says (console, `kiosk status`).
    @discardableResult
    public func end(_ ending: Ending, at: Timestamp = .now()) async throws(PretixSyncError) -> String {
        let words = switch ending {
        case .revokedInPretix:
            "pretix revoked this station's device (\(link.device.name)) on \(at.iso8601): the guests of \(link.eventName) were removed from this station; "
                + "its own check-ins stay in its archive (times and doors, no names). To go on, connect again with a new device token (kiosk pretix connect)."
        case .disconnected:
            "Disconnected from pretix on \(at.iso8601): the guests of \(link.eventName) were removed from this station; its own check-ins stay in its archive (times and doors, no names)."
        }
        PretixLinkFile<PretixLink>(database: database).remove()
        PretixLinkFile<PretixDeviceRecord>(database: database).remove()
        PretixLinkFile<PretixSignedTickets>(database: database).remove()
        do {
            try await database.clearSyncedRoster(forgetEvent: true)
            try await database.setSetting(.hubURL, nil)
            try await database.setSetting(.caseInsensitiveCodes, nil)
            try await database.setSetting(.pretixNotice, words)
        } catch { throw .storage(error) }
        logger.notice("pretix link ended", metadata: ["how": "\(ending)", "event": "\(link.event)"])
        return words
    }

    /// Disconnects deliberately: sends what is queued first, refuses while anything is still
    /// waiting (unless `discarding`), revokes the device at pretix when it answers, then ``end(_:at:)``.
    public func disconnect(discarding: Bool) async throws(PretixSyncError) -> String {
        _ = try? await push()
        let pending: Int
        do { pending = try database.outbox.pendingCount() } catch { throw .storage(error) }
        if pending > 0 && !discarding { throw .pendingChanges(pending) }
        if pending > 0 {
            do { _ = try await database.outbox.discardPending(operatorName: "", reason: "at pretix disconnect") } catch { throw .storage(error) }
        }
        if let client = try? link.client() { try? await client.revoke() }
        return try await end(.disconnected)
    }
}
