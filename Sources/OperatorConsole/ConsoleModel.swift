import CheckInCore
import Foundation

/// The console's whole state as a value: which screen is open, what was typed, the result
/// panel, the status line. Key presses go in through ``handle(_:now:)``; what the station must
/// do comes out as ``ConsoleRequest``s. No I/O, no curses: the renderer draws it, tests drive it.
///
/// ```swift
/// var model = ConsoleModel()
/// for key in "DEMO-0001" { _ = model.handle(.character(key), now: 0) }
/// model.handle(.enter, now: 0)   // [.submitCode("DEMO-0001")]
/// ```
public struct ConsoleModel: Sendable, Equatable {
    public enum Screen: Sendable, Equatable {
        /// "Scan your ticket": printable keys build a code, Enter submits it.
        case idle
        case search
        case walkIn
        case help
        case confirmQuit
        case signOut
        /// The uploads the hub refused for good, with their reasons.
        case refusedUploads
        /// "Print 12 waiting badges?": print all, on the other printer, or cancel.
        case staleBadges(count: Int)
        /// Self-service: operator functions wait for the PIN.
        case pin
        /// Storage did not start: no scanning, only the diagnostic and quit.
        case diagnostic
        /// Not signed in and no local roster: hub address, e-mail, password.
        case signIn
        /// Signed in, no event chosen: today's, this week's or all events.
        case pickEvent
        /// The chosen event's first roster download, with its progress.
        case download
        /// Set-up: each scan is shown with its source and timing and checks nobody in.
        case scannerTest
    }

    public enum Mode: Sendable, Equatable {
        case operatorMode
        case selfService
    }

    /// Seconds a result stays on the attendee panel before "Scan your ticket" returns.
    public static let panelSeconds = 4.0

    public internal(set) var screen: Screen = .idle
    public private(set) var mode: Mode = .operatorMode
    /// The code being typed on the idle screen.
    public private(set) var input = ""
    public private(set) var panel: ResultPanel?
    public private(set) var panelUntil = 0.0
    /// The badge job whose progress the panel's badge line shows.
    public private(set) var panelBadgeJob: Int64?
    /// A one-line message for the operator (validation, "Badge reprinted", errors).
    public internal(set) var notice: String?
    /// "Storage updated v1 → v2", shown once after an upgrade until dismissed by the next action.
    public var banner: String?
    public var status = StationStatusLine()
    public private(set) var diagnostic: StorageDiagnostic?
    /// The station's latest scan, for the scanner test (the console service keeps it current).
    public var lastScan: ScannerDiagnostics?

    public private(set) var query = ""
    public private(set) var results: [GuestRow] = []
    public private(set) var selected = 0

    public private(set) var draft = WalkInDraft()
    public private(set) var field = 0
    public private(set) var accessChoices: [AccessChoice] = []

    /// The refused uploads shown by ``Screen/refusedUploads``.
    public private(set) var refusedUploads: [RefusedUpload] = []

    public private(set) var pinInput = ""
    public private(set) var pinGuard = PINGuard()
    /// The sign-out screen's choice while it is open.
    public internal(set) var signOutPrompt: SignOutPrompt?
    /// The sign-in screen's form while the station is being set up.
    public internal(set) var signInForm: SignInForm?
    /// The event picker after sign-in.
    public internal(set) var eventPicker: EventPicker?
    /// The first roster download's progress.
    public internal(set) var download: RosterDownload?
    /// What the set-up screens start from (the configuration's hub and event, the last e-mail).
    public var setupDefaults = SetupDefaults()
    /// Where "keep running" returns from the quit prompt.
    var quitReturn: Screen = .idle
    /// Whether this station records entries or exits (shown unmistakably on every screen).
    public private(set) var direction: Direction = .entry
    public let pin: String?
    /// Bells to ring at the next draw (taken by the renderer's caller).
    public internal(set) var pendingBells = 0
    public var size = TerminalSize(rows: 24, columns: 80)

    /// - Parameters:
    ///   - pin: the self-service PIN; without one, self-service cannot be entered from the keyboard.
    ///   - selfService: start in self-service mode.
    ///   - pinGuard: the PIN's wrong entries and lockout as the last run left them.
    public init(pin: String? = nil, selfService: Bool = false, accessChoices: [AccessChoice] = [], pinGuard: PINGuard = PINGuard()) {
        self.pinGuard = pinGuard
        self.pin = pin.flatMap { $0.isEmpty ? nil : $0 }
        self.mode = selfService && self.pin != nil ? .selfService : .operatorMode
        self.accessChoices = accessChoices
        self.draft.accessTypeID = accessChoices.first?.id ?? ""
    }

    // MARK: Answers from the station

    /// Shows a result on the attendee panel for ``panelSeconds`` and queues its bells.
    /// - Parameter badgeJob: the badge job of this result, whose progress updates the panel.
    public mutating func show(_ panel: ResultPanel, badgeJob: Int64? = nil, now: Double) {
        self.panel = panel
        panelBadgeJob = badgeJob
        panelUntil = now + Self.panelSeconds
        pendingBells = panel.tone.bells
    }

    /// A badge's progress: shown on the panel while that attendee's result is still up.
    public mutating func badgeProgress(job: Int64, words: String) {
        guard panel != nil, panelBadgeJob == job else { return }
        panel?.badge = words
    }

    /// Badges waited too long: the operator is asked what to do with them (the open screen is
    /// replaced only when it holds nothing being typed).
    public mutating func askAboutStaleBadges(count: Int) {
        guard count > 0, mode == .operatorMode else { return }
        if screen == .idle || screen == .help || screen == .refusedUploads { screen = .staleBadges(count: count) }
        pendingBells += 1
    }

    /// Applies a new status line; a printer fault that was not there before rings once.
    public mutating func setStatus(_ line: StationStatusLine) {
        if line.printerAlert && !status.printerAlert { pendingBells += 2 }
        status = line
    }

    /// New search results, if they still answer the current query.
    public mutating func searchResults(for query: String, _ rows: [GuestRow]) {
        guard query == self.query else { return }
        results = rows
        selected = min(selected, max(0, rows.count - 1))
    }

    /// An operator message (reprint done, walk-in refused with the store's reason, …).
    public mutating func note(_ message: String?) {
        notice = message.map(TerminalText.clean)
    }

    /// The walk-in was registered: back to the idle screen with a fresh form.
    public mutating func walkInRegistered() {
        draft = WalkInDraft(accessTypeID: accessChoices.first?.id ?? "")
        field = 0
        if screen == .walkIn { screen = .idle }
    }

    /// The access types the walk-in form offers.
    public mutating func setAccessChoices(_ choices: [AccessChoice]) {
        accessChoices = choices
        if !choices.contains(where: { $0.id == draft.accessTypeID }) { draft.accessTypeID = choices.first?.id ?? "" }
    }

    /// The refused uploads, for their screen.
    public mutating func showRefused(_ uploads: [RefusedUpload]) {
        refusedUploads = uploads
    }

    /// Storage did not start: only the diagnostic screen from now on.
    public mutating func showDiagnostic(_ diagnostic: StorageDiagnostic) {
        self.diagnostic = diagnostic
        screen = .diagnostic
    }

    /// Hands the queued bells to the caller once.
    public mutating func takeBells() -> Int {
        defer { pendingBells = 0 }
        return pendingBells
    }

    /// Time passes: an expired result gives way to the prompt again.
    public mutating func tick(now: Double) {
        if panel != nil, now >= panelUntil { panel = nil }
    }

    // MARK: Keys

    /// Handles one key press and returns what the station must do (usually nothing or one request).
    @discardableResult
    public mutating func handle(_ key: Key, now: Double) -> [ConsoleRequest] {
        tick(now: now)
        switch screen {
        case .diagnostic: return handleDiagnostic(key)
        case .pin: return handlePIN(key, now: now)
        case .idle: return handleIdle(key)
        case .search: return handleSearch(key)
        case .walkIn: return handleWalkIn(key)
        case .help:
            // "T" on the help opens the scanner test; a scanner's burst never gets here.
            screen = key == .character("t") || key == .character("T") ? .scannerTest : .idle
            return []
        case .scannerTest:
            screen = .idle
            return []
        case .signIn, .pickEvent, .download:
            return handleSetup(key)
        case .confirmQuit:
            // Only the function key: a scanner typing "Y…" must never stop the station.
            if key == .function(10) { return [.quit] }
            screen = diagnosticQuit ? .diagnostic : quitReturn
            return []
        case .signOut: return handleSignOut(key)
        case .staleBadges:
            let choice: StaleBadgesChoice? = switch key {
            case .character("a"), .character("A"): .printAll
            case .character("o"), .character("O"): .printOnOtherPrinter
            case .character("c"), .character("C"): .cancel
            default: nil
            }
            guard let choice else { return [] }
            screen = .idle
            return [.answerStaleBadges(choice)]
        case .refusedUploads:
            switch key {
            case .function(let number) where number != 11:
                screen = .idle
                return functionKey(number)
            default:
                screen = .idle
                return []
            }
        }
    }

    private mutating func handleDiagnostic(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .function(10): screen = .confirmQuit; diagnosticQuit = true
        default: break
        }
        return []
    }

    /// Whether the quit confirmation was opened from the diagnostic screen (Esc goes back there).
    private var diagnosticQuit = false

    private mutating func handleIdle(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .character(let character):
            input.append(character)
            if input.count > 512 { input = String(input.suffix(512)) }
            return []
        case .backspace:
            if !input.isEmpty { input.removeLast() }
            return []
        case .control("u"), .escape:
            input = ""
            notice = nil
            return []
        case .enter:
            let code = input.trimmingCharacters(in: .whitespaces)
            input = ""
            banner = nil
            return code.isEmpty ? [] : [.submitCode(code)]
        case .function(let number):
            return functionKey(number)
        case .control(let letter):
            // Shortcuts for keyboards without usable function keys; none for undo, sign-out or
            // quit: scanners can be set to send control codes.
            let map: [Character: Int] = ["h": 1, "f": 2, "w": 4, "r": 5, "s": 7, "l": 9, "e": 11]
            guard let number = map[letter] else { return [] }
            return functionKey(number)
        default:
            return []
        }
    }

    /// F1 help, F2 search, F3 type a code, F4 walk-in, F5 reprint last, F6 undo, F7 sync,
    /// F8 sign out, F9 self-service on/off, F10 quit, F11 uploads the hub refused.
    private mutating func functionKey(_ number: Int) -> [ConsoleRequest] {
        if mode == .selfService {
            pinInput = ""
            screen = .pin
            return []
        }
        notice = nil
        banner = nil
        switch number {
        case 1: screen = .help
        case 2: screen = .search; query = ""; results = []; selected = 0
        case 3: screen = .idle; input = ""
        case 4: screen = .walkIn; field = 0
        case 5: return [.reprintLast]
        case 6: return [.undoLast]
        case 7: return [.syncNow]
        case 8:
            // With nothing pending there is nothing to choose: sign out at once.
            guard status.pending > 0 else { return [.signOut(.wait)] }
            signOutPrompt = SignOutPrompt(pending: status.pending)
            screen = .signOut
        case 9:
            if pin == nil {
                notice = "Self-service needs a PIN: set self_service_pin in the configuration"
            } else {
                mode = .selfService
                screen = .idle
                input = ""
            }
        case 10: screen = .confirmQuit; diagnosticQuit = false; quitReturn = .idle
        case 11:
            screen = .refusedUploads
            return [.listRefused]
        case 12:
            direction = direction == .entry ? .exit : .entry
            input = ""
            return [.setDirection(direction)]
        default: break
        }
        return []
    }

    private mutating func handlePIN(_ key: Key, now: Double) -> [ConsoleRequest] {
        if pinGuard.isLocked(now: now) {
            pinInput = ""
            screen = .idle
            notice = "PIN locked after too many wrong entries: try again in \(Int(((pinGuard.lockedUntil ?? now) - now) / 60) + 1) min"
            return []
        }
        switch key {
        case .character(let character) where character.isNumber || character.isLetter:
            if pinInput.count < 32 { pinInput.append(character) }
        case .backspace:
            if !pinInput.isEmpty { pinInput.removeLast() }
        case .escape:
            pinInput = ""
            screen = .idle
        case .enter:
            var requests: [ConsoleRequest] = []
            let verdict = pinGuard.check(pinInput, against: pin ?? "", now: now)
            requests.append(.savePINGuard(pinGuard))
            switch verdict {
            case .accepted:
                mode = .operatorMode
                notice = "Operator mode: F9 returns to self-service"
            case .wrong(let left):
                notice = "Wrong PIN (\(left) more tr\(left == 1 ? "y" : "ies") before a lockout)"
            case .lockedOut(let seconds):
                notice = "PIN locked for \(Int(seconds / 60)) min after too many wrong entries"
                pendingBells += 3
                requests.append(.pinLockedOut(seconds: seconds))
            case .locked(let left):
                notice = "PIN locked: try again in \(Int(left / 60) + 1) min"
            }
            pinInput = ""
            screen = .idle
            return requests
        default:
            break
        }
        return []
    }

    private mutating func handleSearch(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .character(let character):
            query.append(character)
            selected = 0
            return [.search(query)]
        case .backspace:
            guard !query.isEmpty else { return [] }
            query.removeLast()
            selected = 0
            if query.isEmpty { results = [] }
            return [.search(query)]
        case .control("u"):
            query = ""
            results = []
            return [.search(query)]
        case .up:
            selected = max(0, selected - 1)
        case .down:
            selected = min(max(0, results.count - 1), selected + 1)
        case .pageUp:
            selected = max(0, selected - 10)
        case .pageDown:
            selected = min(max(0, results.count - 1), selected + 10)
        case .enter:
            guard results.indices.contains(selected) else { return [] }
            let guest = results[selected]
            screen = .idle
            return [.checkInGuest(code: guest.code)]
        case .function(5):
            guard results.indices.contains(selected) else { return [] }
            return [.reprint(guestID: results[selected].id)]
        case .control("o"):
            // The whole order of the picked guest (a family, a group booking), one result each.
            guard results.indices.contains(selected), !results[selected].order.isEmpty else { return [] }
            screen = .idle
            return [.checkInOrder(code: results[selected].code)]
        case .escape, .function(2):
            screen = .idle
        case .function(let number):
            screen = .idle
            return functionKey(number)
        default:
            break
        }
        return []
    }

    /// The walk-in form's fields, in order.
    public static let walkInFields = ["Name", "E-mail", "Company", "Access type"]

    private mutating func handleWalkIn(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .character(let character) where field < 3:
            edit { $0.append(character) }
        case .backspace where field < 3:
            edit { if !$0.isEmpty { $0.removeLast() } }
        case .left where field == 3, .right where field == 3, .character(" ") where field == 3:
            guard !accessChoices.isEmpty else { break }
            let index = accessChoices.firstIndex { $0.id == draft.accessTypeID } ?? 0
            let step = key == .left ? accessChoices.count - 1 : 1
            draft.accessTypeID = accessChoices[(index + step) % accessChoices.count].id
        case .tab, .down:
            field = (field + 1) % Self.walkInFields.count
        case .backTab, .up:
            field = (field + Self.walkInFields.count - 1) % Self.walkInFields.count
        case .enter:
            // Enter moves on field by field, and submits from the last one.
            if field < 3 {
                field += 1
                return []
            }
            if let problem = draft.problem() {
                field = problem.field
                notice = problem.message
                return []
            }
            notice = nil
            return [.registerWalkIn(WalkInDraft(
                name: draft.name.trimmingCharacters(in: .whitespaces), email: draft.email.trimmingCharacters(in: .whitespaces),
                company: draft.company.trimmingCharacters(in: .whitespaces), accessTypeID: draft.accessTypeID))]
        case .escape:
            screen = .idle
            notice = nil
        case .function(4):
            screen = .idle
        default:
            break
        }
        return []
    }

    private mutating func edit(_ change: (inout String) -> Void) {
        switch field {
        case 0: change(&draft.name)
        case 1: change(&draft.email)
        case 2: change(&draft.company)
        default: break
        }
        if draft.name.count > 200 { draft.name = String(draft.name.prefix(200)) }
        notice = nil
    }

    private mutating func handleSignOut(_ key: Key) -> [ConsoleRequest] {
        guard var prompt = signOutPrompt else {
            screen = .idle
            return []
        }
        let outcome = prompt.handle(key)
        signOutPrompt = prompt
        switch outcome {
        case .stay:
            return []
        case .cancel:
            signOutPrompt = nil
            screen = eventPicker != nil ? .pickEvent : .idle
            return []
        case .confirm(let choice):
            signOutPrompt = nil
            screen = eventPicker != nil ? .pickEvent : .idle
            return [.signOut(choice)]
        }
    }

    /// Entry or exit, as the station was started (the operator switches with F12).
    public mutating func setDirection(_ direction: Direction) {
        self.direction = direction
    }

}

/// The terminal's size in character cells.
public struct TerminalSize: Sendable, Equatable {
    public var rows: Int
    public var columns: Int
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Below this the console shows "Terminal too small" instead of a cramped layout.
    public static let minimum = TerminalSize(rows: 16, columns: 60)

    public var isTooSmall: Bool { rows < Self.minimum.rows || columns < Self.minimum.columns }
}
