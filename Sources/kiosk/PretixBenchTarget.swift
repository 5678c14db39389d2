import ArgumentParser

/// The pretix a benchmark runs against, as a new device of it (`kiosk bench pretix`,
/// `kiosk bench pretix-online`).
struct PretixBenchTarget: ParsableArguments {
    @Option(help: "pretix's address.") var url: String
    @Option(help: "A new device's initialization token (the benchmark becomes that device).") var token: String
    @Option(help: "The event's slug.") var event: String
    @Option(help: "The check-in list's id (needed when the event has several).") var list: Int?
}
