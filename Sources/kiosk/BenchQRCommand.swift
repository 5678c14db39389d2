import ArgumentParser

/// `kiosk bench qr TRUTH`: the corpus score of `kiosk decode --truth`, under the bench command.
struct BenchQRCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "QR detection and decode time on a corpus (truth.json), next to zbarimg on the same frames.")

    @Argument(help: "The corpus truth.json (e.g. the public QR corpus).")
    var truth: String

    @Option(help: "Time budget per 640x480 frame in milliseconds.")
    var budgetMs: Double?

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    func run() async throws {
        var arguments = ["--truth", truth]
        if let budgetMs { arguments += ["--budget-ms", String(budgetMs)] }
        if json { arguments.append("--json") }
        let decode = try DecodeCommand.parse(arguments)
        try await decode.run()
    }
}
