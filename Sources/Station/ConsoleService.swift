import CheckInCore
import Foundation
import KioskStore
import OperatorConsole

/// The full-screen operator console: terminal inputs and station events go into one
/// ``ConsoleModel``; its requests go to the runtime; every change is drawn by the screen thread.
struct ConsoleService: StationService {
    let runtime: StationRuntime
    let model: ConsoleModel
    let camera: String
    var name: String { "console" }

    private enum Input: Sendable {
        case terminal(TerminalInput)
        case station(StationEvent)
        case status(StationStatusLine)
        case results(String, [GuestRow])
        case refused([RefusedUpload])
    }

    func run() async throws {
        let terminal = CursesTerminal()
        defer { terminal.stop() }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let forwarders = [
            Task { for await input in terminal.inputs { continuation.yield(.terminal(input)) } },
            Task { for await event in runtime.events { continuation.yield(.station(event)) } },
        ]
        defer { forwarders.forEach { $0.cancel() } }

        var model = self.model
        model.setAccessChoices(await runtime.accessChoices())
        model.status = await runtime.statusLine(camera: camera)
        var lastStatus = ContinuousClock.now
        let start = ContinuousClock.now
        func now() -> Double { (ContinuousClock.now - start).seconds }

        for await input in inputs {
            if Task.isCancelled { break }
            switch input {
            case .terminal(.resize(let size)):
                model.size = size
            case .terminal(.tick):
                model.tick(now: now())
                if ContinuousClock.now - lastStatus > .seconds(2) {
                    lastStatus = .now
                    let runtime = self.runtime, camera = self.camera
                    Task { continuation.yield(.status(await runtime.statusLine(camera: camera))) }
                }
            case .terminal(.key(let key)):
                for request in model.handle(key, now: now()) {
                    if case .quit = request { throw StationStop() }
                    perform(request, continuation: continuation)
                }
            case .station(let event):
                apply(event, to: &model, now: now())
            case .status(let line):
                model.status = line
            case .results(let query, let rows):
                model.searchResults(for: query, rows)
            case .refused(let uploads):
                model.showRefused(uploads)
            }
            terminal.draw(model.frame(clock: Self.clock()), bells: model.takeBells())
        }
    }

    private func perform(_ request: ConsoleRequest, continuation: AsyncStream<Input>.Continuation) {
        let runtime = self.runtime
        switch request {
        case .submitCode(let code):
            runtime.submit(Presentation(.code(code), source: .typed, at: .now()))
        case .checkInGuest(let code):
            runtime.submit(Presentation(.code(code), source: .search, at: .now()))
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
            Task { continuation.yield(.refused(await runtime.refusedUploads())) }
        case .signOut(let choice):
            Task { await runtime.signOut(choice) }
        case .quit:
            break
        }
    }

    private func apply(_ event: StationEvent, to model: inout ConsoleModel, now: Double) {
        switch event {
        case .result(let feedback, _):
            model.show(feedback.panel, now: now)
            if case .walkIn = feedback.presentation.input {
                if feedback.failure == nil, feedback.outcome != nil {
                    model.walkInRegistered()
                    model.note("Walk-in registered: \(feedback.outcome?.badge?.code ?? "")" + (feedback.badge.map { " · badge \($0.state)" } ?? ""))
                } else {
                    model.note(feedback.failure)
                }
            }
        case .notice(let message, _):
            model.note(message)
            if message.hasPrefix("Check-in undone") { model.show(ResultPanel(tone: .neutral, title: message), now: now) }
        case .printer(let state):
            model.status.printer = state.words
        case .sync(let status, let pending, let refused, let clockFault):
            model.status.online = status.online
            model.status.syncDescription = status.description
            model.status.pending = pending
            model.status.refused = refused
            model.status.clockFault = clockFault
        case .storageUnavailable(let state, let pending, let guests):
            var migration: String?
            if case .migrationFailed(let name, _) = state { migration = name }
            if case .checksumMismatch(let name) = state { migration = name }
            model.showDiagnostic(StorageDiagnostic(migration: migration, error: state.message, pendingCheckIns: pending, guests: guests))
        case .ready, .scan, .repeatIgnored, .stopping:
            break
        }
    }

    static func clock() -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: Date())
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
