/// A whole order checked in from the search list (Ctrl-O): each ticket is decided on its own,
/// and the panel shows them together, one line each, so a refused member is seen beside the
/// ones let in instead of being replaced by the next result.
public struct OrderResults: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public var code: String
        public var name: String
        /// `nil` until its result is in; then whether they may go in, and the result's words.
        public var letIn: Bool?
        public var words: String = ""
    }

    /// The order's code ("FAM01").
    public var order: String
    public private(set) var members: [Member]
    /// The first staff note among the results.
    public private(set) var note: String?

    /// - Parameter members: the tickets presented, in order: code and name.
    public init(order: String, members: [(code: String, name: String)]) {
        self.order = order
        self.members = members.map { Member(code: $0.code, name: $0.name) }
    }

    /// Whether `code` is one of this order's tickets still waiting for its result.
    public func expects(_ code: String) -> Bool {
        members.contains { $0.code == code && $0.letIn == nil }
    }

    /// One ticket's result.
    public mutating func record(code: String, letIn: Bool, panel: ResultPanel) {
        guard let index = members.firstIndex(where: { $0.code == code && $0.letIn == nil }) else { return }
        members[index].letIn = letIn
        // "Welcome, Ana Lima" is said by the mark; anything else in the panel's words.
        members[index].words = letIn && panel.tone != .information ? [panel.detail].filter { !$0.isEmpty }.joined() : panel.title
        if note == nil { note = panel.note }
    }

    public var isComplete: Bool { members.allSatisfy { $0.letIn != nil } }

    /// The panel for the results so far.
    public var panel: ResultPanel {
        let decided = members.filter { $0.letIn != nil }
        let admitted = decided.filter { $0.letIn == true }.count
        let refused = decided.count - admitted
        let title: String
        let tone: ResultPanel.Tone
        if !isComplete {
            title = "Order \(order): \(decided.count) of \(members.count) decided"
            tone = refused > 0 ? .warning : .neutral
        } else if refused == 0 {
            title = "Order \(order): all \(members.count) may go in"
            tone = note == nil ? .welcome : .attention
        } else {
            title = "Order \(order): \(admitted) of \(members.count) may go in — \(refused) refused, see below"
            tone = admitted == 0 ? .refused : .warning
        }
        let lines = members.map { member -> String in
            let mark = switch member.letIn {
            case true?: "✓"
            case false?: "✗"
            case nil: "·"
            }
            let words = member.letIn == nil ? "deciding" : member.words
            return "\(mark) \(member.name)" + (words.isEmpty ? "" : " — " + words)
        }
        return ResultPanel(tone: tone, title: title, note: note, members: lines)
    }
}
