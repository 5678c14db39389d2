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
        /// The full text of what the other screens shorten: the faults with their fixes, the
        /// status line's parts, the last result.
        case details
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
        /// The ticket's questions at the door, before its entry is recorded (``QuestionForm``).
        case questions
    }

    public enum Mode: Sendable, Equatable {
        case operatorMode
        case selfService
    }

    /// Seconds a result stays on the attendee panel before "Scan your ticket" returns.
    public static let panelSeconds = 4.0

    public internal(set) var screen: Screen = .idle
    public internal(set) var mode: Mode = .operatorMode
    /// The code being typed on the idle screen.
    public internal(set) var input = ""
    public internal(set) var panel: ResultPanel?
    public internal(set) var panelUntil = 0.0
    /// The badge job whose progress the panel's badge line shows.
    public internal(set) var panelBadgeJob: Int64?
    /// A one-line message for the operator (validation, "Badge reprinted", errors).
    public internal(set) var notice: String?
    /// "Storage updated v1 → v2", shown once after an upgrade until dismissed by the next action.
    public var banner: String?
    public var status = StationStatusLine()
    public internal(set) var diagnostic: StorageDiagnostic?
    /// The station's latest scan, for the scanner test (the console service keeps it current).
    public var lastScan: ScannerDiagnostics?

    public internal(set) var query = ""
    public internal(set) var results: [GuestRow] = []
    public internal(set) var selected = 0

    public internal(set) var draft = WalkInDraft()
    public internal(set) var field = 0
    public internal(set) var accessChoices: [AccessChoice] = []

    /// Badges that waited too long, asked about below the code line until answered with a typed
    /// word (``StaleBadgesChoice/word``) and Enter.
    public internal(set) var staleQuestion: StaleBadgesQuestion?
    /// "Admit anyway?" for the unpaid ticket on the panel; gone with the panel, or at the next result.
    public internal(set) var unpaidQuestion: UnpaidQuestion?
    /// The questions a ticket needs answered before entry, while their screen is open.
    public internal(set) var questionForm: QuestionForm?

    /// A sign-out waiting for uploads, with its progress (shown below the panel until it is done).
    public internal(set) var signingOut: SignOutProgress?

    /// A whole order being checked in: its results share the panel.
    public internal(set) var order: OrderResults?

    /// The refused uploads shown by ``Screen/refusedUploads``.
    public internal(set) var refusedUploads: [RefusedUpload] = []

    public internal(set) var pinInput = ""
    public internal(set) var pinGuard = PINGuard()
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
    /// Staff may search the guests (F2): not on a device whose ticket shop keeps the guest list
    /// from it (pretix's kiosk profile), as pretix's own devices do.
    public var offersSearch = true
    /// Where "keep running" returns from the quit prompt.
    var quitReturn: Screen = .idle
    /// Whether the quit confirmation was opened from the diagnostic screen (Esc goes back there).
    var diagnosticQuit = false
    /// Whether this station records entries or exits (shown unmistakably on every screen).
    public internal(set) var direction: Direction = .entry
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
        self.draft.accessTypeID = AccessChoice.walkInDefault(accessChoices) ?? ""
    }

    // MARK: Answers from the station

    /// Shows a result on the attendee panel for ``panelSeconds`` and queues its bells.
    /// - Parameter badgeJob: the badge job of this result, whose progress updates the panel.
    public mutating func show(_ panel: ResultPanel, badgeJob: Int64? = nil, now: Double) {
        self.panel = panel
        unpaidQuestion = nil
        panelBadgeJob = badgeJob
        panelUntil = now + Self.panelSeconds
        pendingBells = panel.tone.bells
    }

    /// How many changes a sign-out under way still waits for; `nil`: it ended (signed out, or refused).
    public mutating func signOutProgress(left: Int?) {
        guard let left else { signingOut = nil; return }
        signingOut = SignOutProgress(waiting: max(signingOut?.waiting ?? left, left), left: left)
    }

    /// A whole order was presented: its tickets' results are gathered on one panel.
    public mutating func startOrder(_ order: OrderResults) {
        self.order = order.members.count > 1 ? order : nil
    }

    /// A result for one of the order's tickets: added to the order's panel (true), or not one of
    /// them (false: show it alone).
    public mutating func showOrderResult(code: String, letIn: Bool, panel: ResultPanel, now: Double) -> Bool {
        guard var order, order.expects(code) else { return false }
        order.record(code: code, letIn: letIn, panel: panel)
        self.order = order.isComplete ? nil : order
        show(order.panel, now: now)
        // A family takes a moment to read: the panel stays twice as long.
        panelUntil = now + 2 * Self.panelSeconds
        return true
    }

    /// A badge's progress: shown on the panel while that attendee's result is still up.
    public mutating func badgeProgress(job: Int64, words: String) {
        guard panel != nil, panelBadgeJob == job else { return }
        panel?.badge = words
    }

    /// Badges waited too long: the question shows below the code line (nil: answered, or nothing
    /// waits any more). The screen open stays open and nothing typed is lost; the bell rings
    /// when more badges wait than were asked about.
    public mutating func askAboutStaleBadges(_ question: StaleBadgesQuestion?) {
        let asked = staleQuestion?.count ?? 0
        staleQuestion = question.flatMap { $0.count > 0 && !$0.choices.isEmpty ? $0 : nil }
        if let count = staleQuestion?.count, count > asked { pendingBells += 1 }
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
        draft = WalkInDraft(accessTypeID: AccessChoice.walkInDefault(accessChoices) ?? "")
        field = 0
        if screen == .walkIn { screen = .idle }
    }

    /// The access types the walk-in form offers.
    public mutating func setAccessChoices(_ choices: [AccessChoice]) {
        accessChoices = choices
        if !choices.contains(where: { $0.id == draft.accessTypeID }) { draft.accessTypeID = AccessChoice.walkInDefault(choices) ?? "" }
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
        if panel != nil, now >= panelUntil {
            panel = nil
            unpaidQuestion = nil
        }
    }

    /// The panel shows an unpaid ticket the shop leaves to the door: ask staff (operator mode only:
    /// an attendee at a self-service station sees the refusal and goes to staff).
    public mutating func askAdmitUnpaid(_ question: UnpaidQuestion) {
        guard mode == .operatorMode else { return }
        unpaidQuestion = question
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
