import CheckInCore
import Foundation

/// The attendee-facing result: a large colour-coded message, a detail line and a bell pattern.
public struct ResultPanel: Sendable, Equatable {
    /// The colour and bell pattern of a result.
    public enum Tone: String, Sendable, Equatable {
        /// Green, one bell: come in.
        case welcome
        /// Blue, two bells: information (already checked in), not an error.
        case information
        /// Yellow, three bells: this ticket does not open this door.
        case warning
        /// Red, three bells: see staff.
        case refused
        /// Neutral, no bell: operator confirmations ("Check-in undone").
        case neutral
        /// Magenta, one bell: a guest leaving ("Goodbye, José — see you later").
        case farewell
        /// Green with a yellow note band, four bells: admitted, and the staff must read the
        /// ticket's note ("Hand out the VIP lanyard").
        case attention

        /// How many times the terminal bell rings for this tone.
        public var bells: Int {
            switch self {
            case .welcome, .farewell: 1
            case .information: 2
            case .warning, .refused: 3
            case .attention: 4
            case .neutral: 0
            }
        }
    }

    public var tone: Tone
    public var title: String
    public var detail: String
    /// The attendee's badge in their words ("Your badge is printing"), updated while shown.
    public var badge: String?
    /// The ticket's note for the staff, shown in its own band (``Tone/attention``); in
    /// self-service mode the attendee is asked to see staff instead.
    public var note: String?

    public init(tone: Tone, title: String, detail: String = "", badge: String? = nil, note: String? = nil) {
        self.tone = tone
        self.title = title
        self.detail = detail
        self.badge = badge
        self.note = note
    }

    /// The panel for a decision. Names and places are cleaned here, so nothing from the roster
    /// reaches the terminal raw.
    /// A ticket's staff note (`attention`) turns an admission into ``Tone/attention``.
    public init(decision: Decision, guestName: String?, accessType: String?, badge: String? = nil, attention: String? = nil,
                timeZone: TimeZone = .current) {
        let name = TerminalText.clean(guestName ?? "")
        switch decision {
        case .admitted:
            let note = attention.map(TerminalText.clean).flatMap { $0.isEmpty ? nil : $0 }
            self.init(tone: note == nil ? .welcome : .attention, title: "Welcome, \(name)",
                      detail: [accessType.map(TerminalText.clean), badge].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · "),
                      note: note.map { "Staff: \($0)" })
        case .duplicate(let previous) where previous.isBeforeImport, .alreadyCheckedIn(let previous) where previous.isBeforeImport:
            self.init(tone: .information, title: "Already checked in — before import, \(Self.clock(previous.at, timeZone: timeZone))", detail: name)
        case .duplicate(let previous), .alreadyCheckedIn(let previous):
            self.init(tone: .information,
                      title: "Already checked in — by \(TerminalText.clean(previous.by)) at \(TerminalText.clean(previous.station)), \(Self.clock(previous.at, timeZone: timeZone))",
                      detail: name)
        case .unknownCode:
            self.init(tone: .refused, title: "Ticket not recognized — please see staff")
        case .notValidHere(let type):
            self.init(tone: .warning, title: "Not valid for this entrance", detail: [name, TerminalText.clean(type)].filter { !$0.isEmpty }.joined(separator: " · "))
        case .outsideWindow:
            self.init(tone: .warning, title: "Ticket not valid at this time — please see staff", detail: name)
        case .revoked:
            self.init(tone: .refused, title: "Ticket revoked — please see staff", detail: name)
        }
    }

    /// `HH:mm`, as the door staff read times.
    public static func clock(_ at: Timestamp, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: at.date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// The status line's facts, in words.
public struct StationStatusLine: Sendable, Equatable {
    public var online: Bool
    public var syncDescription: String
    public var pending: Int
    public var rosterGuests: Int
    public var rosterAge: String?
    public var printer: String
    public var camera: String
    public var stationName: String
    /// Uploads the hub refused for good (listed with F11).
    public var refused: Int
    /// The most urgent fault with what to do ("No camera — type codes or use the scanner:
    /// plug the camera in…"), on its own line above the status line.
    public var fault: String?
    /// A printer fault the staff must see: the fault line flashes and the bell rings once.
    public var printerAlert: Bool = false
    /// "Here 12 · all doors 340 of 1500 · inside 290", with "as of 19:41" while offline.
    public var counts: String?
    /// "Clock wrong — set the time" while the station's clock cannot be believed.
    public var clockFault: String?

    public init(online: Bool = false, syncDescription: String = "no hub", pending: Int = 0, rosterGuests: Int = 0, rosterAge: String? = nil,
                printer: String = "no printer", camera: String = "no camera — type codes with F3", stationName: String = "Station",
                refused: Int = 0, clockFault: String? = nil, fault: String? = nil, printerAlert: Bool = false, counts: String? = nil) {
        self.counts = counts
        self.refused = refused
        self.clockFault = clockFault
        self.fault = fault
        self.printerAlert = printerAlert
        self.online = online
        self.syncDescription = syncDescription
        self.pending = pending
        self.rosterGuests = rosterGuests
        self.rosterAge = rosterAge
        self.printer = printer
        self.camera = camera
        self.stationName = stationName
    }

    /// One line: "offline (no hub) · 3 pending sync · roster 1200 guests, 2 h old · printer: ready · camera: …".
    public var text: String {
        var parts = ["\(online ? "online" : "offline") (\(syncDescription))", "\(pending) pending sync"]
        if let clockFault { parts.insert(clockFault, at: 0) }
        if refused > 0 { parts.append("\(refused) refused by the hub (F11)") }
        parts.append(printer)
        parts.append(camera)
        parts.append("roster \(rosterGuests) guests" + (rosterAge.map { ", \($0)" } ?? ""))
        return parts.map(TerminalText.clean).joined(separator: " · ")
    }
}

/// Why storage did not start, shown instead of the scan prompt.
public struct StorageDiagnostic: Sendable, Equatable {
    public var migration: String?
    public var error: String
    public var pendingCheckIns: Int
    public var guests: Int

    public init(migration: String?, error: String, pendingCheckIns: Int, guests: Int) {
        self.migration = migration
        self.error = error
        self.pendingCheckIns = pendingCheckIns
        self.guests = guests
    }
}
