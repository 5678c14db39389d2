/// A fault the staff must act on: what is wrong and what fixes it.
public struct StationFault: Sendable, Equatable {
    /// "Badge printer is out of labels".
    public var words: String
    /// "load a new roll".
    public var fix: String?

    public init(words: String, fix: String?) {
        self.words = words
        self.fix = fix
    }
}

/// The status line's facts, in words.
public struct StationStatusLine: Sendable, Equatable {
    /// The hub as the staff read it: "hub online", "connecting to the hub", "hub slow to answer —
    /// retrying", "hub unreachable — working offline", "no hub".
    public var hub: String
    /// Whether the station syncs with a hub at all (a stand-alone station keeps its check-ins).
    public var hasHub: Bool
    public var pending: Int
    public var rosterGuests: Int
    public var rosterAge: String?
    public var printer: String
    public var camera: String
    public var stationName: String
    /// Uploads the hub refused for good (listed with F11).
    public var refused: Int
    /// Every fault with what to do, most urgent first; the first is shown above the status line,
    /// all of them on the details screen (F3).
    public var faults: [StationFault]
    /// A printer fault the staff must see: the fault line flashes and the bell rings once.
    public var printerAlert: Bool = false
    /// "Here 12 · all doors 340 of 1500 · inside 290", with "as of 19:41" while offline.
    public var counts: String?
    /// "Clock wrong — set the time" while the station's clock cannot be believed.
    public var clockFault: String?

    public init(hub: String = "no hub", hasHub: Bool = false, pending: Int = 0, rosterGuests: Int = 0, rosterAge: String? = nil,
                printer: String = "no printer", camera: String = "no camera — type codes or use the scanner", stationName: String = "Station",
                refused: Int = 0, clockFault: String? = nil, faults: [StationFault] = [], printerAlert: Bool = false, counts: String? = nil) {
        self.hub = hub
        self.hasHub = hasHub
        self.pending = pending
        self.rosterGuests = rosterGuests
        self.rosterAge = rosterAge
        self.printer = printer
        self.camera = camera
        self.stationName = stationName
        self.refused = refused
        self.clockFault = clockFault
        self.faults = faults
        self.printerAlert = printerAlert
        self.counts = counts
    }

    /// The most urgent fault, for the line above the status line.
    public var fault: StationFault? { faults.first }

    /// The line's parts, in order: "hub online", "3 pending sync", "printer ready", "camera: …",
    /// "roster 1200 guests, 2 h old". Parts are never split when the line wraps.
    public var parts: [String] {
        var parts: [String] = []
        if let clockFault { parts.append(clockFault) }
        if hasHub {
            parts += [hub, "\(pending) pending sync"]
        } else {
            // Nothing to sync with: the check-ins stay here (and upload if a hub is signed in to later).
            parts.append(pending == 0 ? hub : "\(hub) — \(pending) check-in\(pending == 1 ? "" : "s") kept on this station")
        }
        if refused > 0 { parts.append("\(refused) refused by the hub (F11)") }
        parts += [printer, camera, "roster \(rosterGuests) guest\(rosterGuests == 1 ? "" : "s")" + (rosterAge.map { ", \($0)" } ?? "")]
        return parts.map(TerminalText.clean)
    }

    /// One line: "hub online · 3 pending sync · printer ready · camera: … · roster 1200 guests, 2 h old".
    public var text: String { parts.joined(separator: " · ") }
}
