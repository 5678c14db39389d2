import ServiceLifecycle

/// The check-in flow: presentations in order until the station stops, then those already
/// submitted, then the user interface is told the station is stopping.
struct FlowService: Service {
    let runtime: StationRuntime

    func run() async throws {
        await withGracefulShutdownHandler {
            await runtime.run()
        } onGracefulShutdown: {
            runtime.stopTaking()
        }
        await runtime.finish()
    }
}
