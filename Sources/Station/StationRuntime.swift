import CheckInCore
import Foundation
import KioskStore
import Logging
import OperatorConsole
import Synchronization

/// Executes the check-in flow: takes presentations in order from any source (camera,
/// scanner, console), performs the actions ``CheckInFlow`` returns (record in the store,
/// print, announce), and answers the console's operator actions. All decisions live in the
/// flow and the store; this actor only carries them out.
public actor StationRuntime {
    public let database: KioskDatabase
    public let printer: any BadgePrinter
    public let sync: any SyncService
    let operatorName: String?
    let logger: Logger
    private var flow: CheckInFlow
    private var lastBadge: BadgeContent?
    private let inbox: AsyncStream<Presentation>.Continuation
    private let inboxStream: AsyncStream<Presentation>
    private let eventContinuation: AsyncStream<StationEvent>.Continuation
    /// Events for the one user interface (console or headless log).
    public nonisolated let events: AsyncStream<StationEvent>

    public init(database: KioskDatabase, printer: any BadgePrinter, sync: any SyncService, policy: PrintPolicy,
                operatorName: String? = nil, logger: Logger = Logger(label: "kiosk.station")) {
        self.database = database
        self.printer = printer
        self.sync = sync
        self.operatorName = operatorName
        self.logger = logger
        flow = CheckInFlow(policy: policy)
        (inboxStream, inbox) = AsyncStream.makeStream(of: Presentation.self)
        (events, eventContinuation) = AsyncStream.makeStream(of: StationEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// Queues a presentation; it is decided after the ones before it.
    public nonisolated func submit(_ presentation: Presentation) {
        submitted.withLock { $0 += 1 }
        inbox.yield(presentation)
    }

    private nonisolated let submitted = Mutex(0)
    private var handled = 0

    /// Whether submitted presentations are still waiting or in progress.
    public var isBusy: Bool { submitted.withLock { $0 } > handled }

    public nonisolated func emit(_ event: StationEvent) {
        eventContinuation.yield(event)
    }

    /// The flow service: handles presentations until cancelled.
    public func run() async {
        for await presentation in inboxStream {
            if Task.isCancelled { break }
            await handle(presentation)
            handled += 1
        }
    }

    /// Runs one presentation through the flow to its feedback (tests call this directly).
    public func handle(_ presentation: Presentation) async {
        if case .code(let code) = presentation.input { emit(.scan(code: code, source: presentation.source)) }
        var actions = flow.present(presentation)
        while !actions.isEmpty {
            let action = actions.removeFirst()
            switch action {
            case .record(let presentation):
                do {
                    let result = try await record(presentation)
                    actions += flow.recorded(RecordedOutcome(decision: result.decision, badge: result.guest.map(Self.badge)))
                    currentGuestID = result.guest?.guest.id
                } catch {
                    logger.error("check-in not recorded: \(error)")
                    actions += flow.recordFailed(error.description)
                }
            case .printBadge(let badge):
                lastBadge = badge
                let outcome = await printer.printBadge(badge)
                emit(.printer(await printer.state()))
                actions += flow.printed(outcome)
            case .feedback(let feedback):
                if let badge = feedback.outcome?.badge, feedback.outcome?.decision == .admitted { lastBadge = badge }
                emit(.result(feedback, guestID: currentGuestID))
            case .ignoreRepeat(let presentation):
                if case .code(let code) = presentation.input { emit(.repeatIgnored(code: code)) }
            }
        }
    }

    private var currentGuestID: String?

    private func record(_ presentation: Presentation) async throws(StoreError) -> CheckInResult {
        switch presentation.input {
        case .code(let code):
            return try await database.checkIn(CheckInRequest(rawCode: code, source: presentation.source, operatorName: operatorName, at: presentation.at))
        case .walkIn(let draft):
            return try await database.addWalkIn(WalkInRequest(
                name: draft.name, email: draft.email, company: draft.company, accessTypeID: draft.accessTypeID,
                operatorName: operatorName, at: presentation.at))
        }
    }

    static func badge(_ details: GuestDetails) -> BadgeContent {
        BadgeContent(guestID: details.guest.id, name: details.guest.name, company: details.guest.company,
                     accessType: details.accessTypeName, accessTypeID: details.guest.accessTypeID, code: details.guest.code.value)
    }

    // MARK: Operator actions

    /// Guests matching a query, as console rows (empty on a storage error).
    public func search(_ query: String) -> [GuestRow] {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        return ((try? database.search(query, limit: 50)) ?? []).map {
            GuestRow(id: $0.guest.id, code: $0.guest.code.value, name: $0.guest.name, email: $0.guest.email,
                     company: $0.guest.company, accessType: $0.accessTypeName, checkedIn: $0.checkedIn)
        }
    }

    public func reprintLast() async {
        guard let badge = lastBadge else {
            emit(.notice("Nothing to reprint yet", action: "reprint"))
            return
        }
        await reprint(badge)
    }

    public func reprint(guestID: String) async {
        guard let details = try? database.guest(id: guestID) else {
            emit(.notice("Guest not found", action: "reprint"))
            return
        }
        await reprint(Self.badge(details))
    }

    private func reprint(_ badge: BadgeContent) async {
        let outcome = await printer.printBadge(badge)
        try? await database.audit(action: "reprint", guestID: badge.guestID, detail: outcome.state, operatorName: operatorName)
        emit(.printer(await printer.state()))
        switch outcome {
        case .printed, .queued: emit(.notice("Badge reprinted for \(badge.name)", action: "reprint"))
        case .failed(let reason): emit(.notice("Reprint failed: \(reason)", action: "reprint"))
        }
    }

    public func undoLast() async {
        do {
            if let undone = try await database.undoLastCheckIn(operatorName: operatorName) {
                let name = undone.guest?.guest.name ?? undone.checkIn.guestID
                emit(.notice("Check-in undone: \(name)", action: "undo"))
            } else {
                emit(.notice("No check-in to undo", action: "undo"))
            }
        } catch {
            emit(.notice("Undo failed: \(error.description)", action: "undo"))
        }
    }

    public func syncNow() async {
        emit(.notice(await sync.syncNow(), action: "sync"))
        await publishSyncState()
    }

    public func signOut(_ choice: PendingChangesChoice) async {
        emit(.notice(await sync.signOut(choice), action: "sign_out"))
    }

    public func publishSyncState() async {
        let status = try? database.status(consumeNotice: false)
        emit(.sync(await sync.status(), pending: status?.pending ?? 0, refused: status?.rejected ?? 0, clockFault: status?.clock.message))
    }

    /// The status line's facts.
    public func statusLine(camera: String) async -> StationStatusLine {
        let status = try? database.status(consumeNotice: false)
        let syncStatus = await sync.status()
        let age = status?.rosterImportedAt.map { Self.age(since: $0) }
        return StationStatusLine(
            online: syncStatus.online, syncDescription: syncStatus.description, pending: status?.pending ?? 0,
            rosterGuests: status?.guests ?? 0, rosterAge: age, printer: await printer.state().words, camera: camera,
            stationName: (try? database.stationName()) ?? "Station", refused: status?.rejected ?? 0, clockFault: status?.clock.message)
    }

    /// The uploads the hub refused for good, newest last, named by guest where the roster knows them.
    public func refusedUploads() -> [RefusedUpload] {
        ((try? database.rejectedOutbox()) ?? []).map { entry in
            let guestName: String? = switch entry.change {
            case .success(let change): (try? database.guest(id: change.guestID))??.guest.name
            case .failure: nil
            }
            let what = switch entry.kind {
            case .checkIn: "Check-in"
            case .walkIn: "Walk-in"
            case .undo: "Undo"
            case nil: "Change"
            }
            return RefusedUpload(what: what + " " + (guestName ?? entry.ref), reason: entry.lastError ?? "",
                                 at: ResultPanel.clock(entry.sortAt, timeZone: .current))
        }
    }

    static func age(since: Timestamp) -> String {
        let minutes = max(0, (Timestamp.now().milliseconds - since.milliseconds) / 60_000)
        if minutes < 1 { return "just imported" }
        if minutes < 60 { return "\(minutes) min old" }
        if minutes < 48 * 60 { return "\(minutes / 60) h old" }
        return "\(minutes / 1440) days old"
    }

    /// Access types for the walk-in form.
    public func accessChoices() -> [AccessChoice] {
        ((try? database.accessTypes()) ?? []).map { AccessChoice(id: $0.id, name: $0.name) }
    }

    public func finish() {
        emit(.stopping)
        inbox.finish()
        eventContinuation.finish()
    }
}
