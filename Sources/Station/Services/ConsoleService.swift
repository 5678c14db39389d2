import CheckInCore
import Foundation
import KioskStore
import Logging
import OperatorConsole
import ServiceLifecycle

/// The full-screen operator console: terminal inputs and station events go into one
/// ``ConsoleModel``; its requests go to the runtime; every change is drawn by the screen thread.
/// Nothing else writes to the terminal while it runs (logs go to a file).
struct ConsoleService: Service {
    let runtime: StationRuntime
    let model: ConsoleModel
    /// What to do as soon as the console is up (list the events, resume a download).
    var firstRequests: [ConsoleRequest] = []
    /// When keys typed on the console are a keyboard-wedge scan (`wedge_*` in the configuration).
    var wedge = WedgeThresholds.standard

    private enum Input: Sendable {
        case terminal(TerminalInput)
        case station(StationEvent)
        case stationStopped
        case status(StationStatusLine)
        case results(String, [GuestRow])
        case refused([RefusedUpload])
        case setup(SetupAnswer)
        /// A sign-out's changes still to upload; `nil` when it ended.
        case signOutLeft(Int?)
    }

    /// Returns when the operator quits (the station then stops) or, after a signal, when the
    /// station has stopped.
    func run() async throws {
        let terminal = CursesTerminal(wedge: wedge)
        defer { terminal.stop() }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let forwarders = [
            Task { for await input in terminal.inputs { continuation.yield(.terminal(input)) } },
            Task {
                for await event in runtime.events { continuation.yield(.station(event)) }
                continuation.yield(.stationStopped)
            },
        ]
        defer { forwarders.forEach { $0.cancel() } }

        var model = self.model
        model.setAccessChoices(runtime.accessChoices())
        model.setStatus(await runtime.statusLine())
        var lastStatus = ContinuousClock.now
        let start = ContinuousClock.now
        func now() -> Double { (ContinuousClock.now - start).seconds }
        // The set-up step under way (sign-in, event list, roster download): one at a time.
        var setupTask: Task<Void, Never>?
        defer { setupTask?.cancel() }
        for request in firstRequests { perform(request, continuation: continuation, setupTask: &setupTask) }

        for await input in inputs {
            switch input {
            case .terminal(.hangup):
                // The console's terminal is gone (a dropped connection, a killed tmux): nobody can
                // see or answer the door any more, so the station stops as on F10, keeping all it
                // recorded. A station meant to run without a screen runs `kiosk run --headless`.
                runtime.logger.notice("the console's terminal went away: stopping the station")
                return
            case .terminal(.resize(let size)):
                model.size = size
            case .terminal(.tick):
                model.tick(now: now())
                if ContinuousClock.now - lastStatus > .seconds(2) {
                    lastStatus = .now
                    let runtime = self.runtime
                    Task { continuation.yield(.status(await runtime.statusLine())) }
                }
            case .terminal(.scanned(let code, let timing)):
                // A scanner's burst is a presentation whatever screen is open: it never answers
                // a prompt or fills a field, so the model does not see it.
                runtime.submitScan(ScannerDiagnostics(code: code, source: .wedge, timing: timing))
            case .terminal(.key(let key)):
                for request in model.handle(key, now: now()) {
                    if case .quit = request { return }
                    if case .savePINGuard(let pinGuard) = request {
                        await runtime.savePINGuard(pinGuard.saved(now: now(), wallClock: .now()))
                        continue
                    }
                    if case .checkInOrder(let code) = request {
                        let order = runtime.submitOrder(of: code)
                        model.startOrder(OrderResults(order: order.order, members: order.members))
                    }
                    perform(request, continuation: continuation, setupTask: &setupTask)
                }
                runtime.setScannerTest(model.screen == .scannerTest)
            case .station(.setup(let answer)):
                // A set-up step the station took by itself (a scanned pretix device QR code).
                continuation.yield(.setup(answer))
            case .station(let event):
                apply(event, to: &model, now: now())
                if case .health = event {
                    let runtime = self.runtime
                    Task { continuation.yield(.status(await runtime.statusLine())) }
                }
            case .stationStopped:
                // The station stopped on a signal: the console goes last, when told.
                try? await gracefulShutdown()
                return
            case .status(let line):
                model.setStatus(line)
            case .results(let query, let rows):
                model.searchResults(for: query, rows)
            case .refused(let uploads):
                model.showRefused(uploads)
            case .signOutLeft(let left):
                model.signOutProgress(left: left)
            case .setup(let answer):
                for request in model.apply(answer) { perform(request, continuation: continuation, setupTask: &setupTask) }
                if case .rosterReady = answer {
                    model.setAccessChoices(runtime.accessChoices())
                    model.setStatus(await runtime.statusLine())
                }
            }
            if model.screen == .scannerTest { model.lastScan = runtime.lastScan.current }
            terminal.draw(model.frame(clock: Self.clock(), now: now()), bells: model.takeBells())
        }
    }

    private func perform(_ request: ConsoleRequest, continuation: AsyncStream<Input>.Continuation, setupTask: inout Task<Void, Never>?) {
        let runtime = self.runtime
        let answer: @Sendable (SetupAnswer) -> Void = { continuation.yield(.setup($0)) }
        switch request {
        case .submitCode(let code):
            runtime.submit(Presentation(.code(code), source: .typed, at: .now()))
        case .checkInGuest(let code):
            runtime.submit(Presentation(.code(code), source: .search, at: .now()))
        case .checkInOrder(let code):
            // Handled in ``run()``: the model gathers the order's results.
            _ = code
        case .registerWalkIn(let draft):
            runtime.submit(Presentation(.walkIn(draft), source: .walkIn, at: .now()))
        case .search(let query):
            Task { continuation.yield(.results(query, await runtime.search(query))) }
        case .reprintLast:
            Task { await runtime.reprintLast() }
        case .reprint(let guestID):
            Task { await runtime.reprint(guestID: guestID) }
        case .undoLast:
            Task { await runtime.undoLast() }
        case .syncNow:
            Task { await runtime.syncNow() }
        case .listRefused:
            Task { continuation.yield(.refused(runtime.refusedUploads())) }
        case .setDirection(let direction):
            runtime.setDirection(direction)
        case .pinLockedOut(let seconds):
            Task { await runtime.pinLockedOut(seconds: seconds) }
        case .savePINGuard:
            break  // kept in order by the key loop
        case .answerStaleBadges(let choice):
            Task { await runtime.answerStaleBadges(choice) }
        case .admitUnpaid(let code):
            runtime.submit(Presentation(.code(code), source: .typed, at: .now(), admitUnpaid: true))
        case .answerQuestions(let code, let answers):
            runtime.submit(Presentation(.code(code), source: .typed, at: .now(), answers: answers))
        case .signOut(let choice):
            Task {
                await runtime.signOut(choice) { left in continuation.yield(.signOutLeft(left)) }
                continuation.yield(.signOutLeft(nil))
                if await runtime.needsSignIn() { answer(.signedOut) }
            }
        case .signIn(let credentials):
            setupTask?.cancel()
            setupTask = Task { answer(await runtime.signIn(credentials)) }
        case .listEvents(let range):
            Task { answer(await runtime.events(range)) }
        case .useEvent(let event):
            setupTask?.cancel()
            setupTask = Task { await runtime.useEvent(event.id, name: event.name, answer: answer) }
        case .usePretixList(let list):
            setupTask?.cancel()
            setupTask = Task { await runtime.usePretixList(list, answer: answer) }
        case .resumeDownload(let event):
            setupTask?.cancel()
            setupTask = Task { await runtime.downloadRoster(event: event, answer: answer) }
        case .useDemoRoster:
            setupTask?.cancel()
            setupTask = Task { answer(await runtime.useDemoRoster()) }
        case .quit:
            break
        }
    }

    private func apply(_ event: StationEvent, to model: inout ConsoleModel, now: Double) {
        switch event {
        case .result(let feedback):
            if case .code(let code) = feedback.presentation.input,
               model.showOrderResult(code: code, letIn: feedback.outcome?.decision.letsGuestIn ?? false, panel: feedback.panel, now: now) {
                break
            }
            model.show(feedback.panel, badgeJob: feedback.outcome?.badgeJobID, now: now)
            if case .unpaid(admitAnyway: true) = feedback.outcome?.decision, case .code(let code) = feedback.presentation.input,
               feedback.presentation.direction == .entry {
                model.askAdmitUnpaid(UnpaidQuestion(code: code, guestName: feedback.outcome?.guest?.name ?? ""))
            }
            if case .questions(let asked) = feedback.outcome?.decision, case .code(let code) = feedback.presentation.input {
                model.askQuestions(QuestionForm(code: code, guestName: feedback.outcome?.guest?.name ?? "", asked: asked))
            }
            if feedback.presentation.isWalkIn {
                if feedback.failure == nil, let guest = feedback.outcome?.guest {
                    model.walkInRegistered()
                    model.note("Walk-in registered: \(guest.code)")
                } else {
                    model.note(feedback.failure)
                }
            }
        case .badge(let progress):
            model.badgeProgress(job: progress.jobID, words: progress.attendeeWords)
            if progress.stage == .atDesk, let reason = progress.reason { model.note("Badge job \(progress.jobID): \(reason)") }
        case .unreadable:
            model.show(ResultPanel(tone: .refused, title: "Unreadable code — please see staff or type the code"), now: now)
        case .staleBadges(let question):
            model.askAboutStaleBadges(question)
        case .notice(let message, _):
            model.note(message)
            if message.hasPrefix("Check-in undone") { model.show(ResultPanel(tone: .neutral, title: message), now: now) }
        case .sync(_, let pending, let refused):
            model.status.pending = pending
            model.status.refused = refused
        case .storageUnavailable(let state, let pending, let guests):
            var migration: String?
            if case .migrationFailed(let name, _) = state { migration = name }
            if case .checksumMismatch(let name) = state { migration = name }
            model.showDiagnostic(StorageDiagnostic(migration: migration, error: state.message, pendingCheckIns: pending, guests: guests))
        case .ready, .scan, .repeatIgnored, .health, .stopping, .setup:
            break
        }
    }

    static func clock() -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: Date())
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
