import CheckInCore
import Foundation
import KioskStore
import OperatorConsole

/// Every part of the station the staff depend on, as typed states: the console's status and
/// fault lines, the headless `health` event and `kiosk status --json` (while the station runs)
/// all read this one value.
public struct StationHealth: Sendable, Equatable {
    public var printer: PrinterCondition
    public var camera: CameraHealth
    public var hub: HubHealth
    public var storage: StorageHealth
    public var clock: ClockState
    public var scanner: ScannerHealth
    public var session: SessionHealth
    /// How well the storage key is kept from whoever takes the disk (nil: not assessed).
    public var storageKey: StorageKeyProtection?

    public init(printer: PrinterCondition = .off, camera: CameraHealth = .off, hub: HubHealth = .none,
                storage: StorageHealth = .ok, clock: ClockState = .plausible, scanner: ScannerHealth = .off, session: SessionHealth = .none,
                storageKey: StorageKeyProtection? = nil) {
        self.storageKey = storageKey
        self.printer = printer
        self.camera = camera
        self.hub = hub
        self.storage = storage
        self.clock = clock
        self.scanner = scanner
        self.session = session
    }

    /// The same health with the print queue's counts left out.
    var ignoringCounts: StationHealth {
        var copy = self
        copy.printer.waiting = 0
        return copy
    }

    /// One part in words: a machine-readable state, what the staff read, and the fix.
    public struct Part: Sendable, Equatable {
        public var state: String
        public var words: String
        public var fix: String?
        /// Whether it stops or slows the door (shown on the fault line, rings for the printer).
        public var isFault: Bool
    }

    public var printerPart: Part {
        let counts = printer.waiting > 0 ? " · \(printer.waiting) badge\(printer.waiting == 1 ? "" : "s") waiting" : ""
        return switch printer.state {
        case .off: Part(state: "off", words: "printing off", fix: nil, isFault: false)
        case .ready: Part(state: "ready", words: "printer ready" + counts, fix: nil, isFault: false)
        case .printing: Part(state: "printing", words: "printing" + counts, fix: nil, isFault: false)
        // The print queue's words name the printer already ("Badge printer is out of labels"):
        // the hub's station list puts them after its own "Printer:" label.
        case .fault(let words, let fix): Part(state: "fault", words: words + counts, fix: fix, isFault: true)
        }
    }

    public var cameraPart: Part {
        switch camera {
        case .off: Part(state: "off", words: "no camera — type codes or use the scanner", fix: nil, isFault: false)
        case .scanning(let source): Part(state: "scanning", words: "scanning: \(source)", fix: nil, isFault: false)
        case .fault(let fault, let fix): Part(state: fault.rawValue, words: "No camera — type codes or use the scanner", fix: fix, isFault: true)
        }
    }

    public var scannerPart: Part {
        switch scanner {
        case .off: Part(state: "off", words: "no dedicated scanner", fix: nil, isFault: false)
        case .reading(let source): Part(state: "reading", words: "scanner: \(source)", fix: nil, isFault: false)
        case .fault(let fault, let fix): Part(state: fault.rawValue, words: "Scanner not reading — type codes or use the camera", fix: fix, isFault: true)
        }
    }

    public var hubPart: Part {
        switch hub {
        case .none: Part(state: "none", words: "no hub", fix: nil, isFault: false)
        case .connecting: Part(state: "connecting", words: "connecting to the hub", fix: nil, isFault: false)
        case .online: Part(state: "online", words: "hub online", fix: nil, isFault: false)
        case .degraded: Part(state: "degraded", words: "hub slow to answer — retrying", fix: nil, isFault: false)
        case .offline(let reason): Part(state: "offline", words: "hub unreachable — working offline",
                                        fix: reason ?? "Check the network; check-ins are kept and upload when the hub answers.", isFault: false)
        case .signedOut: Part(state: "signed_out", words: "signed out by the hub",
                              fix: "Sign in again (kiosk signin); pending check-ins are kept.", isFault: true)
        case .notSignedIn: Part(state: "not_signed_in", words: "not signed in",
                                fix: "Sign in (kiosk signin --hub URL --email E); check-ins are kept meanwhile.", isFault: true)
        case .pretix(let list, nil): Part(state: "online", words: "pretix online · \(list)", fix: nil, isFault: false)
        case .pretix(let list, let reason?): Part(state: "offline", words: "pretix unreachable · \(list) — working offline",
                                                   fix: reason + " Check-ins are kept and sent when pretix answers.", isFault: false)
        case .pretixLinkUnreadable(let problem): Part(state: "link_unreadable", words: "pretix connection unreadable — not syncing",
                                                      fix: problem + " Check-ins are kept meanwhile.", isFault: true)
        case .pretixRevoked: Part(state: "revoked", words: "pretix revoked this device — its guests were removed",
                                  fix: "Connect again with a new device token from pretix (kiosk pretix connect); what was admitted is kept.",
                                  isFault: true)
        case .insecureRefused: Part(state: "insecure_hub_refused", words: "insecure hub address refused — not syncing",
                                    fix: "Use https:// for the hub, or set allow_insecure_http = true in kiosk.conf (trusted network only); check-ins are kept.",
                                    isFault: true)
        }
    }

    public var storagePart: Part {
        switch storage {
        case .ok: Part(state: "ok", words: "storage ok", fix: nil, isFault: false)
        case .fault(let message): Part(state: "fault", words: "Storage: check-ins are NOT being recorded", fix: message, isFault: true)
        }
    }

    public var sessionPart: Part {
        switch session {
        case .none: Part(state: "none", words: "no sign-in end", fix: nil, isFault: false)
        case .lasting(let until): Part(state: "ok", words: "signed in until \(until.iso8601)", fix: nil, isFault: false)
        case .endingSoon(let at):
            Part(state: "ending_soon", words: "Sign-in ends at \(ResultPanel.clock(at, timeZone: .current))",
                 fix: "Sign in again (kiosk signin) before then; check-ins are kept either way.", isFault: true)
        }
    }

    /// A key on the data's own disk is a fault of its own, the least urgent: said plainly on the
    /// fault line whenever nothing more pressing is, with the stronger choice.
    public var storageKeyPart: Part {
        guard let storageKey else { return Part(state: "unknown", words: "storage key not assessed", fix: nil, isFault: false) }
        guard storageKey.sameDiskAsData else { return Part(state: storageKey.rawValue, words: "storage key " + storageKey.words, fix: nil, isFault: false) }
        return Part(state: storageKey.rawValue, words: "Guest data key on this same disk: a stolen disk or box opens the guest data",
                    fix: "Keep the key on a USB stick (sudo kiosk storage move-key --to-removable /media/kiosk-key) or use a box with a TPM2",
                    isFault: true)
    }

    public var clockPart: Part {
        switch clock {
        case .plausible: Part(state: "ok", words: "clock ok", fix: nil, isFault: false)
        case .wrong: Part(state: "wrong", words: clock.message ?? "Clock wrong — set the time",
                          fix: "Set the date and time (or connect the network for time sync); check-ins are kept and marked.", isFault: true)
        }
    }

    /// The printer on the status line: a fault in two words (its whole sentence and fix are on
    /// the fault line or the details screen), with the badges waiting.
    public var printerStatusWords: String {
        guard printerPart.isFault else { return printerPart.words }
        return "printer fault" + (printer.waiting > 0 ? " · \(printer.waiting) badge\(printer.waiting == 1 ? "" : "s") waiting" : "")
    }

    /// The camera on the status line: a fault in two words (the fault line and details have it all).
    public var cameraStatusWords: String { cameraPart.isFault ? "camera fault" : cameraPart.words }

    /// The most urgent fault, with its fix, for the console's fault line: storage stops the
    /// door, then the printer, camera and scanner slow it, then the session and the clock, then a
    /// sign-in about to end, last a storage key on the data's own disk.
    public var mostUrgent: Part? {
        faults.first
    }

    /// Every fault, most urgent first (the console's details screen lists them all).
    public var faults: [Part] {
        [storagePart, printerPart, cameraPart, scannerPart, hubPart, clockPart, sessionPart, storageKeyPart].filter(\.isFault)
    }

    /// The `health` object of the headless event and of `kiosk status --json`.
    public var json: JSONValue {
        func object(_ part: Part) -> JSONValue {
            ["state": .string(part.state), "message": .string(Sanitized.text(part.words)), "fix": .optional(part.fix.map(Sanitized.text))]
        }
        var printerJSON = object(printerPart)
        if case .object(var members) = printerJSON {
            members["name"] = .string(Sanitized.text(printer.name))
            members["waiting"] = .int(printer.waiting)
            printerJSON = .object(members)
        }
        return ["printer": printerJSON, "camera": object(cameraPart), "hub": object(hubPart), "storage": object(storagePart),
                "clock": object(clockPart), "scanner": object(scannerPart), "session": object(sessionPart),
                "storage_key": object(storageKeyPart)]
    }
}
