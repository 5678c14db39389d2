import CNcursesw
import Foundation
import Synchronization

/// What the terminal reports: a key, a keyboard-wedge scan, a new size, or a quiet interval
/// (for timers).
public enum TerminalInput: Sendable, Equatable {
    case key(Key)
    /// A burst of keys at scanner speed ending in Enter (see ``WedgeBurstDetector``): a
    /// presentation, whatever screen is open; none of its keys were reported.
    case scanned(String, timing: ScanTiming)
    case resize(TerminalSize)
    case tick
    /// The terminal went away (its window closed, the connection to it dropped, its tmux server
    /// was killed) without a hang-up signal reaching the station: nothing can be shown or typed
    /// any more. The last input: the stream finishes after it.
    case hangup
}

/// The thin ncurses layer. ncurses is not thread-safe, so one dedicated thread owns the
/// screen: it initialises curses, reads keys (with a 100 ms timeout, which also paces
/// ``TerminalInput/tick``), draws the latest posted frame and ends curses. Other code only
/// posts frames through ``draw(_:bells:)`` and reads ``inputs``.
///
/// Keys pass through a ``WedgeBurstDetector`` on that thread, where their arrival is measured:
/// a keyboard-wedge scanner's burst comes out as one ``TerminalInput/scanned(_:timing:)``.
public final class CursesTerminal: Sendable {
    private struct Shared {
        var frame: ConsoleFrame?
        var bells = 0
        var stopping = false
    }

    private let shared = Mutex(Shared())
    private let stopped = DispatchSemaphore(value: 0)
    private let wedge: WedgeThresholds
    private let continuation: AsyncStream<TerminalInput>.Continuation
    /// Keys, resizes and ticks, in order; finishes when the terminal stops.
    public let inputs: AsyncStream<TerminalInput>

    /// Whether standard input and output are a terminal curses can drive.
    public static var isAvailable: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["TERM"].map { $0 != "dumb" && !$0.isEmpty } ?? false)
    }

    /// Starts the screen thread; the first input is the terminal's size.
    /// - Parameter wedge: when typed keys are a scanner's burst (``WedgeThresholds/off``: never).
    public init(wedge: WedgeThresholds = .standard) {
        self.wedge = wedge
        (inputs, continuation) = AsyncStream.makeStream(of: TerminalInput.self, bufferingPolicy: .bufferingNewest(256))
        let thread = Thread { [self] in self.screenLoop() }
        thread.name = "kiosk.console"
        thread.start()
    }

    /// Posts a frame; the screen thread draws it within one key timeout.
    public func draw(_ frame: ConsoleFrame, bells: Int = 0) {
        shared.withLock {
            $0.frame = frame
            $0.bells += bells
        }
    }

    /// Restores the terminal and waits for the screen thread to end.
    public func stop() {
        let first = shared.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { stopped.wait() }
    }

    private func screenLoop() {
        cncursesw_setlocale()
        initscr()
        cbreak()
        noecho()
        nonl()
        keypad(cncursesw_stdscr(), true)
        set_escdelay(25)
        wtimeout(cncursesw_stdscr(), 100)
        if has_colors() {
            start_color()
            // The 8 basic colours: a Linux text console (tty1) has 16, xterm and tmux more.
            init_pair(1, Int16(COLOR_BLACK), Int16(COLOR_WHITE))
            init_pair(2, Int16(COLOR_BLACK), Int16(COLOR_GREEN))
            init_pair(3, Int16(COLOR_WHITE), Int16(COLOR_BLUE))
            init_pair(4, Int16(COLOR_BLACK), Int16(COLOR_YELLOW))
            init_pair(5, Int16(COLOR_WHITE), Int16(COLOR_RED))
            init_pair(6, Int16(COLOR_BLACK), Int16(COLOR_CYAN))
            init_pair(7, Int16(COLOR_RED), Int16(COLOR_BLACK))
            init_pair(8, Int16(COLOR_WHITE), Int16(COLOR_MAGENTA))
            init_pair(9, Int16(COLOR_BLACK), Int16(COLOR_YELLOW))
        }
        continuation.yield(.resize(currentSize()))
        var keys = KeyArrivals(detector: WedgeBurstDetector(thresholds: wedge))
        while true {
            let (frame, bells, stopping) = shared.withLock { state -> (ConsoleFrame?, Int, Bool) in
                defer { state.frame = nil; state.bells = 0 }
                return (state.frame, state.bells, state.stopping)
            }
            if stopping { break }
            if let frame { paint(frame) }
            for index in 0..<bells {
                if index > 0 { napms(150) }
                beep()
            }
            // Keys held back as a possible scan are released when no key follows in time.
            wtimeout(cncursesw_stdscr(), keys.timeoutMilliseconds(idle: 100))
            var character: wint_t = 0
            let result = wget_wch(cncursesw_stdscr(), &character)
            if result == ERR, Self.terminalGone() {
                // A hung-up terminal answers every read at once: without this the loop would spin.
                continuation.yield(.hangup)
                continuation.finish()
                stopped.signal()
                return
            } else if result == ERR {
                if keys.isHolding {
                    keys.expire().forEach { continuation.yield($0) }
                } else {
                    continuation.yield(.tick)
                }
                keys.nothingWaiting()
            } else if result == KEY_CODE_YES, Int32(character) == KEY_RESIZE {
                continuation.yield(.resize(currentSize()))
            } else if let key = result == KEY_CODE_YES ? Self.functionKey(Int32(character)) : Self.characterKey(UInt32(character)) {
                keys.receive(key, moreWaiting: Self.inputWaiting()).forEach { continuation.yield($0) }
            }
        }
        endwin()
        continuation.finish()
        stopped.signal()
    }

    /// Whether the terminal is gone: a hung-up terminal (its other end closed) reports POLLHUP or
    /// an error, and a read returns at once instead of waiting for a key.
    private static func terminalGone() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Whether more input is already waiting on the terminal (ncurses reads it a byte at a time).
    private static func inputWaiting() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    private func currentSize() -> TerminalSize {
        var rows: Int32 = 0, columns: Int32 = 0
        getmaxyx_shim(&rows, &columns)
        return TerminalSize(rows: Int(rows), columns: Int(columns))
    }

    private func getmaxyx_shim(_ rows: inout Int32, _ columns: inout Int32) {
        // ncurses' getmaxy/getmaxx return the number of rows/columns (not the last index).
        rows = getmaxy(cncursesw_stdscr())
        columns = getmaxx(cncursesw_stdscr())
    }

    private func paint(_ frame: ConsoleFrame) {
        let screen = cncursesw_stdscr()
        werase(screen)
        for run in frame.runs {
            wattrset(screen, Self.attributes(run.style))
            mvwaddstr(screen, Int32(run.row), Int32(run.column), run.text)
        }
        wattrset(screen, 0)
        if let cursor = frame.cursor {
            curs_set(1)
            wmove(screen, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(screen)
    }

    private static func attributes(_ style: ConsoleFrame.Style) -> Int32 {
        let color = has_colors()
        func pair(_ number: Int16) -> Int32 { color ? cncursesw_color_pair(number) : cncursesw_a_reverse() }
        switch style {
        case .normal: return 0
        case .bold: return cncursesw_a_bold()
        case .bar: return pair(1)
        case .highlight: return cncursesw_a_reverse()
        case .prompt: return pair(6)
        case .alert: return (color ? cncursesw_color_pair(7) : 0) | cncursesw_a_bold()
        case .panel(let tone):
            switch tone {
            case .welcome: return pair(2) | cncursesw_a_bold()
            case .information: return pair(3) | cncursesw_a_bold()
            case .warning: return pair(4) | cncursesw_a_bold()
            case .refused: return pair(5) | cncursesw_a_bold()
            case .neutral: return pair(1)
            case .farewell: return pair(8) | cncursesw_a_bold()
            case .attention: return pair(9) | cncursesw_a_bold()
            }
        }
    }

    /// Maps a curses key code (keypad mode) to a key.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_NPAGE: .pageDown
        case KEY_PPAGE: .pageUp
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_ENTER: .enter
        case KEY_BTAB: .backTab
        case (KEY_F0 + 1)...(KEY_F0 + 12): .function(Int(code - KEY_F0))
        default: nil
        }
    }

    /// Maps a typed character (UTF-32) to a key.
    static func characterKey(_ value: UInt32) -> Key? {
        switch value {
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 9: return .tab
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            // Control characters pasted into the terminal never reach the model.
            return TerminalText.clean(String(scalar)).isEmpty ? nil : .character(Character(scalar))
        }
    }
}
