import CheckInCore
import Foundation
import KioskStore
import Logging

/// Runs the check-in flow (``StationRuntime/run()``).
struct FlowService: StationService {
    let runtime: StationRuntime
    var name: String { "check-in flow" }
    func run() async throws {
        await withTaskCancellationHandler {
            await runtime.run()
        } onCancel: {
            Task { await runtime.finish() }
        }
    }
}

/// Feeds a scan source (camera frames, scanner lines) into the flow.
struct ScanService: StationService {
    let source: any ScanSource
    let runtime: StationRuntime
    /// Whether the end of the source stops the station (`--frames FILE` headless: the run is the file).
    let stopAtEnd: Bool
    let logger: Logger
    var name: String { "scanning (\(source.description))" }

    func run() async throws {
        do {
            for try await scanned in source.codes() {
                if Task.isCancelled { return }
                runtime.submit(Presentation(.code(scanned.payload), source: scanned.source, at: .now()))
            }
        } catch {
            logger.error("scanning stopped: \(error)")
            runtime.emit(.notice("Scanning stopped: \(error)", action: "scan_error"))
        }
        if stopAtEnd {
            // Let the flow finish what was submitted before the station stops.
            while await runtime.isBusy { try await Task.sleep(for: .milliseconds(20)) }
            throw StationStop()
        }
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// The hub sync loop (no-op with no hub), publishing its state now and then.
struct SyncLoopService: StationService {
    let runtime: StationRuntime
    var name: String { "sync" }
    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await runtime.sync.run() }
            group.addTask {
                while !Task.isCancelled {
                    await runtime.publishSyncState()
                    try await Task.sleep(for: .seconds(10))
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// `--headless`: one JSON line per event on stdout, for journald.
struct HeadlessService: StationService {
    let runtime: StationRuntime
    var name: String { "headless log" }
    func run() async throws {
        for await event in runtime.events {
            let line = event.json.serialized + "\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }
}
