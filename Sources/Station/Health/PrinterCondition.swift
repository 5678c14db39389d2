/// The badge printer as the door staff need to know it, with the queue's counts.
public struct PrinterCondition: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Printing is switched off (`--printer none`).
        case off
        case ready
        case printing
        /// Out of labels, offline, "Filter failed"…: in plain words, with what to do.
        case fault(String, fix: String?)
    }

    public var state: State
    /// "cups:BrotherQL", "pdf:/var/lib/…/badges".
    public var name: String
    /// Badges waiting to print (queued or held).
    public var waiting: Int

    public init(state: State, name: String, waiting: Int = 0) {
        self.state = state
        self.name = name
        self.waiting = waiting
    }

    public static let off = PrinterCondition(state: .off, name: "none")
}
