import CheckInCore
import OperatorConsole

// The station's ports. Each long-lived part (camera + decoder, printer + spooler, hub sync)
// sits behind one of these protocols, so `kiosk run` starts with what exists in this build
// (keyboard entry, a PDF-folder printer, no hub) and takes the real ones as adapters.

/// A code read by a device: a camera frame's QR payload or a line from a scanner.
public struct ScannedCode: Sendable, Equatable {
    public var payload: String
    public var source: CheckInSource
    public init(payload: String, source: CheckInSource) {
        self.payload = payload
        self.source = source
    }
}

/// Something that produces scanned codes until it ends or is cancelled.
public protocol ScanSource: Sendable {
    /// The device in words, for the status line ("camera /dev/video0", "frames from stdin").
    var description: String { get }
    /// Codes as they are read. Ending the stream (e.g. end of a frame file) ends scanning, not the station.
    func codes() -> AsyncThrowingStream<ScannedCode, any Error>
}

/// Decodes QR codes from one 8-bit grayscale frame (the QR area plugs libzbar in here).
public protocol FrameDecoder: Sendable {
    func decode(gray: [UInt8], width: Int, height: Int) throws -> [String]
}

/// What goes on a badge.
public struct BadgeContent: Sendable, Equatable {
    public var guestID: String
    public var name: String
    public var company: String
    public var accessType: String
    public var accessTypeID: String
    public var code: String
    public init(guestID: String, name: String, company: String, accessType: String, accessTypeID: String = "", code: String) {
        self.guestID = guestID
        self.name = name
        self.company = company
        self.accessType = accessType
        self.accessTypeID = accessTypeID
        self.code = code
    }
}

/// A printer's state in words the door staff understand.
public enum PrinterState: Sendable, Equatable {
    case ready
    case busy
    /// Paper out, cover open, …: `reason` is what to do ("out of labels").
    case needsAttention(String)
    case offline(String)
    /// Printing is switched off (`--printer none`).
    case disabled

    public var words: String {
        switch self {
        case .ready: "ready"
        case .busy: "printing"
        case .needsAttention(let reason): reason
        case .offline(let reason): "offline (\(reason))"
        case .disabled: "off"
        }
    }
}

/// How one badge job ended.
public enum BadgeOutcome: Sendable, Equatable {
    /// Printed (or written), with where it went ("badges/DEMO-0001.pdf", "job 12").
    case printed(String)
    /// Handed to the spooler; completion not confirmed yet.
    case queued(String)
    case failed(String)

    public var state: String {
        switch self {
        case .printed: "printed"
        case .queued: "unconfirmed"
        case .failed: "failed"
        }
    }

    public var detail: String {
        switch self {
        case .printed(let detail), .queued(let detail), .failed(let detail): detail
        }
    }
}

/// A badge printer (CUPS queue with its spooler, or a folder of PDFs).
public protocol BadgePrinter: Sendable {
    /// "pdf:/var/lib/…/badges", "cups:BrotherQL", "none".
    var name: String { get }
    func state() async -> PrinterState
    func printBadge(_ badge: BadgeContent) async -> BadgeOutcome
}

/// The hub connection as the station sees it.
public struct SyncStatus: Sendable, Equatable {
    public var online: Bool
    /// "no hub", "synced 19:41", "retrying in 30 s".
    public var description: String
    public init(online: Bool, description: String) {
        self.online = online
        self.description = description
    }
}

/// Roster download and outbox upload (the sync area's `SyncEngine` plugs in here).
public protocol SyncService: Sendable {
    func status() async -> SyncStatus
    /// One pull + push now; returns what happened, in words.
    func syncNow() async -> String
    /// Sign-out with the operator's choice for pending check-ins; returns what happened.
    func signOut(_ choice: PendingChangesChoice) async -> String
    /// The background loop, run as a service until cancelled.
    func run() async throws
}
