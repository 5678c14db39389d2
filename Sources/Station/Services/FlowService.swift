import ServiceLifecycle

/// The check-in flow: presentations in order until the station stops, then those already
/// submitted.
struct FlowService: Service {
    let runtime: StationRuntime

    func run() async throws {
        await withGracefulShutdownHandler {
            await runtime.run()
        } onGracefulShutdown: {
            runtime.stopTaking()
        }
    }
}

/// Stops second to last, after everything but the user interface: the end of the events it
/// sees (every badge and sync report of the shutdown included).
struct EventsEndService: Service {
    let runtime: StationRuntime

    func run() async throws {
        try? await gracefulShutdown()
        await runtime.finish()
    }
}
