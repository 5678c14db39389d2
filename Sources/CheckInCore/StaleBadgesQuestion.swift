/// The question the print queue asks when badges waited longer than the stale limit: how many,
/// and which answers it can carry out now (the other printer only when one is configured). The
/// console offers exactly these; the print queue may add a note for the operator ("2 of them
/// may already have printed: check the tray first").
public struct StaleBadgesQuestion: Sendable, Hashable {
    /// Badges waiting for the answer.
    public var count: Int
    /// The answers offered, in the order shown.
    public var choices: [StaleBadgesChoice]
    /// What the operator should know before answering, if anything.
    public var note: String?

    public init(count: Int, choices: [StaleBadgesChoice], note: String? = nil) {
        self.count = count
        self.choices = choices
        self.note = note
    }

    /// "Print 12 waiting badges?" / "Print 1 waiting badge?".
    public var title: String { "Print \(count) waiting badge\(count == 1 ? "" : "s")?" }
}
