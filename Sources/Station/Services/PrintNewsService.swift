import ServiceLifecycle

/// Passes the print queue's news on: badge progress to the user interface, the printer's
/// condition into the station's health, questions to the operator.
struct PrintNewsService: Service {
    let printing: any BadgePrinting
    let runtime: StationRuntime

    func run() async throws {
        for await news in printing.news.cancelOnGracefulShutdown() {
            switch news {
            case .badge(let progress): runtime.emit(.badge(progress))
            case .printer(let condition): runtime.updateHealth { $0.printer = condition }
            case .staleBadges(let question): runtime.emit(.staleBadges(question))
            }
        }
        // The queue stopped first (it is listed after this service): wait for our turn.
        try? await gracefulShutdown()
    }
}
