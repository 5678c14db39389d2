import CheckInCore
import Foundation
import KioskStore
import Logging
import OperatorConsole
import PretixSync
import RosterSync
import Synchronization

/// Carries out the check-in flow: takes presentations in order from any source (camera,
/// scanner, console), performs the actions ``CheckInFlow`` returns (record in the store, with
/// the badge job in the same transaction; announce at once; tell the print queue and the sync
/// engine), keeps the station's health, and answers the console's operator actions. Decisions
/// live in the flow and the store; this actor only carries them out.
public actor StationRuntime {
    public let database: KioskDatabase
    public let printing: (any BadgePrinting)?
    public let sync: SyncEngine?
    /// The pretix check-in list this station syncs with instead of a hub (`kiosk pretix connect`,
    /// or a pretix device QR code scanned while the station is set up).
    public nonisolated var pretix: PretixSync? { pretixLink.withLock { $0 } }
    private nonisolated let pretixLink: Mutex<PretixSync?>
    /// The pretix link made while the station runs, for the pretix loop waiting for one.
    nonisolated let pretixConnected: AsyncStream<PretixSync>
    private nonisolated let pretixConnectedContinuation: AsyncStream<PretixSync>.Continuation
    /// The badge job each admission asks for (policy and queue); `nil` with printing off.
    let badgeRequest: BadgeRequest?
    let operatorName: String?
    let logger: Logger
    let healthFile: HealthFile?
    /// Someone at the console chooses what the station cannot (a pretix device's list); a
    /// headless station follows the server's suggestion.
    nonisolated let attended: Bool
    private var flow = CheckInFlow()
    private var lastBadgeGuestID: String?
    /// A scanned pretix device QR code is being taken (a camera reads one QR code many times).
    var connectingPretix = false
    /// The lists a scanned pretix device QR code offered, by ``PretixListChoice/id``, until one is chosen.
    var pretixChoices: [String: PretixListChoice] = [:]
    private let inbox: AsyncStream<Presentation>.Continuation
    private let inboxStream: AsyncStream<Presentation>
    private let eventContinuation: AsyncStream<StationEvent>.Continuation
    /// Events for the one user interface (console or headless log).
    public nonisolated let events: AsyncStream<StationEvent>
    /// The station's health, readable without waiting for the actor (status reads must never
    /// delay the next attendee's answer, which is this actor's work).
    private nonisolated let healthState: Mutex<StationHealth>
    public nonisolated var health: StationHealth { healthState.withLock { $0 } }
    /// The latest scan from any source, with its timing (``submitScan(_:)``).
    public nonisolated let lastScan = LastScan()
    /// Whether the console's scanner test is open (scans are shown there, not checked in).
    nonisolated let scannerTest = Mutex(false)

    public init(database: KioskDatabase, printing: (any BadgePrinting)?, sync: SyncEngine?, badgeRequest: BadgeRequest?,
                health: StationHealth, operatorName: String? = nil, healthFile: HealthFile? = nil, pretix: PretixSync? = nil,
                attended: Bool = false, logger: Logger = Logger(label: "kiosk.station")) {
        self.attended = attended
        self.database = database
        self.printing = printing
        self.sync = sync
        pretixLink = Mutex(pretix)
        (pretixConnected, pretixConnectedContinuation) = AsyncStream.makeStream(of: PretixSync.self, bufferingPolicy: .bufferingNewest(1))
        self.badgeRequest = badgeRequest
        healthState = Mutex(health)
        self.operatorName = operatorName
        self.healthFile = healthFile
        self.logger = logger
        (inboxStream, inbox) = AsyncStream.makeStream(of: Presentation.self)
        (events, eventContinuation) = AsyncStream.makeStream(of: StationEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// From now on the station is a pretix device syncing with `sync`'s list (made while it runs).
    nonisolated func becomePretixStation(_ sync: PretixSync) {
        pretixLink.withLock { $0 = sync }
        pretixConnectedContinuation.yield(sync)
        pretixConnectedContinuation.finish()
        updateHealth { $0.hub = .pretix(list: sync.link.listName, reason: nil) }
    }

    // MARK: Presentations

    /// Queues a presentation, in the station's current direction (entry or exit); it is
    /// decided after the ones before it.
    public nonisolated func submit(_ presentation: Presentation) {
        var presentation = presentation
        if !presentation.isWalkIn { presentation.direction = currentDirection.withLock { $0 } }
        submitted.withLock { $0 += 1 }
        inbox.yield(presentation)
    }

    private nonisolated let currentDirection = Mutex(Direction.entry)

    /// Whether the station records entries or exits (configuration `direction`, console F12).
    public nonisolated var direction: Direction { currentDirection.withLock { $0 } }

    public nonisolated func setDirection(_ direction: Direction) {
        let changed = currentDirection.withLock { current in
            defer { current = direction }
            return current != direction
        }
        if changed { emit(.notice(direction == .exit ? "Exit mode: leaving guests scan here" : "Entry mode", action: "direction")) }
    }

    private nonisolated let submitted = Mutex(0)
    private var handled = 0

    /// Whether submitted presentations are still waiting or in progress.
    public var isBusy: Bool { submitted.withLock { $0 } > handled }

    public nonisolated func emit(_ event: StationEvent) {
        eventContinuation.yield(event)
    }

    /// The flow: handles presentations until ``stopTaking()``, then those already submitted.
    public func run() async {
        for await presentation in inboxStream {
            await handle(presentation)
            handled += 1
        }
    }

    /// No more presentations: ``run()`` finishes the ones already submitted and returns.
    public nonisolated func stopTaking() {
        inbox.finish()
    }

    /// Runs one presentation through the flow to its feedback (tests call this directly).
    public func handle(_ presentation: Presentation) async {
        if case .code(let code) = presentation.input { emit(.scan(code: code, source: presentation.source)) }
        var actions = flow.present(presentation)
        while !actions.isEmpty {
            switch actions.removeFirst() {
            case .record(let presentation):
                await catchUpAfterStall(before: presentation)
                do {
                    let result = try await record(presentation)
                    updateHealth { $0.storage = .ok }
                    actions += flow.recorded(Self.outcome(result))
                } catch {
                    logger.error("check-in not recorded", metadata: ["error": "\(error)"])
                    updateHealth { $0.storage = StorageHealth(error) }
                    actions += flow.recordFailed(error.description)
                }
            case .feedback(let feedback):
                if let outcome = feedback.outcome, outcome.decision.letsGuestIn, let guest = outcome.guest { lastBadgeGuestID = guest.id }
                emit(.result(feedback))
            case .committed(let badgeJobID):
                // The upload and the badge go now, in the background: the line never waits for them.
                sync?.nudge()
                pretix?.nudge()
                if badgeJobID != nil { printing?.nudge() }
                // pretix's loop sends it within its interval; the waiting count shows it now.
                if pretix != nil { await publishSyncState() }
            case .ignoreRepeat(let presentation):
                if case .code(let code) = presentation.input { emit(.repeatIgnored(code: code)) }
            }
        }
    }

    /// How long a scan after a stall waits for the hub's roster before it is decided on the
    /// roster the station has.
    static let stallCatchUpBudget: Duration = .seconds(1)

    /// After the station stood still (a suspended box, `SIGSTOP`), another door may have admitted
    /// this guest meanwhile: one pull first when the hub answers within the budget, else the scan
    /// is decided as it stands, and the operator is told.
    private func catchUpAfterStall(before presentation: Presentation) async {
        guard let sync, case .code = presentation.input else { return }
        if case .notCaughtUp(let stalled) = await sync.catchUpAfterStall(budget: Self.stallCatchUpBudget) {
            let seconds = stalled.components.seconds
            emit(.notice("The station stood still for \(seconds) s and the hub did not answer within 1 s: this scan was decided on the roster "
                         + "from before. If another door admitted the guest meanwhile, the hub lists it for review.", action: "stall"))
        }
    }

    private func record(_ presentation: Presentation) async throws(StoreError) -> CheckInResult {
        switch presentation.input {
        case .code(let code):
            var request = CheckInRequest(rawCode: code, source: presentation.source, operatorName: operatorName, at: presentation.at,
                                         direction: presentation.direction, badge: presentation.direction == .entry ? badgeRequest : nil,
                                         admitUnpaid: presentation.admitUnpaid, answers: presentation.answers)
            // pretix's word first, where only it decides or the station is set to ask it first.
            if let pretix { request = await pretix.door.asked(request) }
            return try await database.desk.checkIn(request)
        case .walkIn(let draft):
            return try await database.desk.addWalkIn(WalkInRequest(
                name: draft.name, email: draft.email, company: draft.company, accessTypeID: draft.accessTypeID,
                operatorName: operatorName, at: presentation.at, badge: badgeRequest))
        }
    }

    static func outcome(_ result: CheckInResult) -> RecordedOutcome {
        var outcome = RecordedOutcome(
            decision: result.decision,
            guest: result.guest.map { GuestSummary(id: $0.guest.id, name: $0.guest.name, accessType: $0.accessTypeName, code: $0.guest.code.value,
                                                    attention: $0.guest.facts.attentionNote, refusal: $0.guest.revoked ? $0.guest.facts.refusal : nil,
                                                    answers: $0.guest.facts.shownAnswers) },
            badgeJobID: result.badgeJob?.id,
            recorded: result.recorded != nil && !result.replayed,
            flag: result.flag)
        outcome.badgeWithheld = result.badgeWithheld
        return outcome
    }

    // MARK: Health

    /// Applies a change to the station's health; a real change is announced and written for
    /// `kiosk status`.
    public nonisolated func updateHealth(_ change: (inout StationHealth) -> Void) {
        let (before, next) = healthState.withLock { health -> (StationHealth, StationHealth) in
            let before = health
            change(&health)
            return (before, health)
        }
        guard next != before else { return }
        for (name, old, new) in [("printer", before.printerPart, next.printerPart), ("camera", before.cameraPart, next.cameraPart),
                                 ("hub", before.hubPart, next.hubPart), ("storage", before.storagePart, next.storagePart),
                                 ("clock", before.clockPart, next.clockPart),
                                 ("scanner", before.scannerPart, next.scannerPart)] where old.state != new.state {
            logger.log(level: new.isFault ? .warning : .notice, "\(name) \(new.state)", metadata: new.fix.map { ["fix": "\($0)"] })
        }
        // The queue's counts change with every badge: written for `kiosk status`, announced only
        // with a change of state.
        if next.ignoringCounts != before.ignoringCounts { emit(.health(next)) }
        healthFile?.write(next)
    }

    /// Rewrites the health file (a heartbeat: `kiosk status` sees the station is alive).
    public nonisolated func writeHealthFile() {
        healthFile?.write(health)
    }

    // MARK: Operator actions

    /// Guests matching a query, as console rows (empty on a storage error).
    public nonisolated func search(_ query: String) async -> [GuestRow] {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        return ((try? database.searchIndex.search(query, limit: 50)) ?? []).map {
            GuestRow(id: $0.guest.id, code: $0.guest.code.value, name: $0.guest.name, email: $0.guest.email,
                     company: $0.guest.company, accessType: $0.accessTypeName, checkedIn: $0.checkedIn, order: $0.guest.facts.orderCode)
        }
    }

    /// Presents every ticket of the order of the guest holding `code`, that guest first: each
    /// is decided, recorded and shown on its own, as if scanned one after the other.
    /// - Returns: the order's code and the tickets presented (code and name), in order.
    @discardableResult
    public nonisolated func submitOrder(of code: String) -> (order: String, members: [(code: String, name: String)]) {
        let members = (try? database.roster.orderMembers(code: code)) ?? []
        for guest in members {
            submit(Presentation(.code(guest.code.value), source: .search, at: .now()))
        }
        return (Sanitized.text(members.first?.facts.orderCode ?? ""), members.map { ($0.code.value, Sanitized.text($0.name)) })
    }

    public func reprintLast() async {
        guard let guestID = lastBadgeGuestID else {
            emit(.notice("Nothing to reprint yet", action: "reprint"))
            return
        }
        await reprint(guestID: guestID)
    }

    public func reprint(guestID: String) async {
        guard let printing else {
            emit(.notice("Printing is off at this station (--printer none)", action: "reprint"))
            return
        }
        do {
            let job = try await printing.reprint(guestID: guestID, requestedBy: operatorName ?? "kiosk")
            let name = (try? database.roster.guest(id: guestID))??.guest.name ?? "the guest"
            emit(.notice("Badge for \(name) queued again (job \(job))", action: "reprint"))
        } catch {
            emit(.notice("Reprint not queued: \(error)", action: "reprint"))
        }
    }

    public func undoLast() async {
        do {
            if let undone = try await database.desk.undoLastCheckIn(operatorName: operatorName) {
                let name = undone.guest?.guest.name ?? undone.checkIn.guestID
                emit(.notice("Check-in undone: \(name)", action: "undo"))
                sync?.nudge()
                pretix?.nudge()
            } else {
                emit(.notice("No check-in to undo", action: "undo"))
            }
        } catch {
            // A refusal already says "Not undone" and why (the guest stays checked in).
            if case .undoBeyondHubWindow = error {
                emit(.notice(error.description, action: "undo"))
            } else {
                emit(.notice("Undo failed: \(error.description)", action: "undo"))
            }
        }
    }

    public func syncNow() async {
        if let pretix {
            do throws(PretixSyncError) {
                let pushed = try await pretix.push()
                let pulled = try await pretix.pull()
                emit(.notice("Synced with pretix: \(pushed.recorded) check-in(s) sent, \(pulled.orders) order(s) changed, "
                             + "\((try? database.outbox.pendingCount()) ?? 0) waiting", action: "sync"))
                updateHealth { $0.hub = .pretix(list: pretix.link.listName, reason: nil) }
            } catch {
                emit(.notice("Sync with pretix failed: \(error.description)", action: "sync"))
                updateHealth { $0.hub = .pretix(list: pretix.link.listName, reason: error.description) }
            }
            await publishSyncState()
            return
        }
        guard let sync else {
            emit(.notice("No hub configured: check-ins stay on this station (kiosk signin --hub URL to connect)", action: "sync"))
            return
        }
        do {
            let report = try await sync.syncNow()
            emit(.notice("Synced: \(report.guestsPulled) guest(s) pulled, \(report.accepted) check-in(s) uploaded, \(report.pending) pending",
                         action: "sync"))
        } catch {
            emit(.notice("Sync failed: \(error.description)", action: "sync"))
        }
        await publishSyncState()
    }

    /// - Parameter left: told how many changes are still to upload while a `.wait` waits.
    public func signOut(_ choice: PendingChangesChoice, left: (@Sendable (Int) -> Void)? = nil) async {
        guard let sync, await signedInAs() != nil else {
            let pending = (try? database.outbox.pendingCount()) ?? 0
            emit(.notice("Not signed in to a hub; \(pending) pending check-in(s) stay on this station", action: "sign_out"))
            return
        }
        do {
            let discarded = try await sync.signOut(choice) { progress in
                if case .upload(_, let pending) = progress { left?(pending) }
            }
            emit(.notice(discarded > 0 ? "Signed out; \(discarded) pending change(s) discarded" : "Signed out", action: "sign_out"))
        } catch {
            emit(.notice("Not signed out: \(error.description)", action: "sign_out"))
        }
    }

    /// Keeps the PIN guard after an entry (awaited before the console takes the next key, so
    /// the kept guard is never an older one). Should it fail, the guard in memory still holds.
    public func savePINGuard(_ saved: PINGuard.Saved) async {
        do throws(StoreError) { try await database.savePINGuard(saved) } catch {
            logger.warning("could not keep the PIN guard", metadata: ["error": "\(error)"])
        }
    }

    /// The self-service PIN locked after too many wrong entries: logged for support.
    public func pinLockedOut(seconds: Double) {
        logger.warning("self-service PIN locked after repeated wrong entries", metadata: ["seconds": "\(Int(seconds))"])
        emit(.notice("Self-service PIN locked for \(Int(seconds / 60)) min after repeated wrong entries", action: "pin_locked"))
    }

    public func answerStaleBadges(_ choice: StaleBadgesChoice) async {
        do {
            try await printing?.answer(choice)
        } catch {
            emit(.notice("Not done: \(error)", action: "stale_badges"))
            return
        }
        let words = switch choice {
        case .printAll: "Printing the waiting badges"
        case .printOnOtherPrinter: "Printing the waiting badges on the other printer"
        case .cancel: "Waiting badges canceled: hand them out at the desk"
        }
        emit(.notice(words, action: "stale_badges"))
    }

    /// The pending and refused counts with the hub's state, for the sync line.
    public nonisolated func publishSyncState() async {
        let status = try? database.status(consumeNotice: false)
        emit(.sync(health.hub, pending: status?.pending ?? 0, refused: status?.rejected ?? 0))
    }

    /// The status line's facts.
    public nonisolated func statusLine() async -> StationStatusLine {
        let status = try? database.status(consumeNotice: false)
        let age = status?.rosterImportedAt.map { Self.age(since: $0) }
        let health = self.health
        return StationStatusLine(
            hub: health.hubPart.words, hasHub: health.hub != .none, pending: status?.pending ?? 0,
            rosterGuests: status?.guests ?? 0, rosterAge: age, printer: health.printerStatusWords, camera: health.cameraStatusWords,
            stationName: (try? database.stationName()) ?? "Station", refused: status?.rejected ?? 0, clockFault: health.clock.message,
            faults: health.faults.map { StationFault(words: $0.words, fix: $0.fix) },
            printerAlert: health.printerPart.isFault, counts: counts(lastPull: status?.lastPull))
    }

    /// "Here 12 · all doors 340 of 1500 · inside 290", from the local copy ("as of HH:MM" of the
    /// last roster pull while the hub is not reachable).
    nonisolated func counts(lastPull: String?) -> String? {
        guard let counts = try? database.desk.doorCounts() else { return nil }
        var text = "Here \(counts.here) · all doors \(counts.allDoors) of \(counts.expected) · inside \(counts.inside)"
        if sync != nil, health.hub != .online, let lastPull, let at = Timestamp(iso8601: lastPull) {
            text += " · as of " + ResultPanel.clock(at, timeZone: .current)
        }
        return text
    }

    /// The uploads the hub refused for good, newest last, named by guest where the roster knows them.
    public nonisolated func refusedUploads() -> [RefusedUpload] {
        ((try? database.outbox.rejectedOutbox()) ?? []).map { entry in
            let guestName: String? = switch entry.change {
            case .success(let change): change.guestID.flatMap { (try? database.roster.guest(id: $0))??.guest.name }
            case .failure: nil
            }
            let what = switch entry.kind {
            case .checkIn: "Check-in"
            case .walkIn: "Walk-in"
            case .undo: "Undo"
            case .refusal: "Refused scan"
            case .badgePrinted: "Printed badge"
            case nil: "Change"
            }
            return RefusedUpload(what: what + " " + (guestName ?? entry.ref), reason: entry.lastError ?? "",
                                 at: ResultPanel.clock(entry.sortAt, timeZone: .current))
        }
    }

    static func age(since: Timestamp) -> String {
        let minutes = max(0, Timestamp.now().milliseconds.subtractingReportingOverflow(since.milliseconds).partialValue / 60_000)
        if minutes < 1 { return "just imported" }
        if minutes < 60 { return "\(minutes) min old" }
        if minutes < 48 * 60 { return "\(minutes / 60) h old" }
        return "\(minutes / 1440) days old"
    }

    /// Access types for the walk-in form, with what its default is chosen by (re-entry, how
    /// many guests hold each, valid now).
    public nonisolated func accessChoices() -> [AccessChoice] {
        let counts = (try? database.roster.guestCountsByAccessType()) ?? [:]
        let now = Timestamp.now()
        return ((try? database.roster.accessTypes()) ?? []).map {
            AccessChoice(id: $0.id, name: $0.name, reentry: $0.reentry, guests: counts[$0.id] ?? 0, validNow: $0.isValid(at: now))
        }
    }

    /// Announces the end of the run to the user interface.
    public func finish() {
        emit(.stopping)
        eventContinuation.finish()
    }
}
