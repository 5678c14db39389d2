import CheckInCore
import Foundation

/// Keys on the scan screen and the function keys. Typed characters build the code line whatever
/// screen shows over it (help, details, prompts): a code typed by hand is never taken as an
/// answer, and Enter submits it. Consequential answers take a function key or a typed word.
extension ConsoleModel {
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
        case .help, .scannerTest, .refusedUploads, .details: return handleInformation(key)
        case .signIn, .pickEvent, .download: return handleSetup(key)
        case .confirmQuit: return handleConfirmQuit(key)
        case .signOut: return handleSignOut(key)
        case .questions: return handleQuestions(key)
        }
    }

    mutating func handleIdle(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .character, .backspace, .enter:
            return editCodeLine(key)
        case .control("u"), .escape:
            input = ""
            notice = nil
            if key == .escape { unpaidQuestion = nil }
            return []
        case .function(let number):
            return functionKey(number)
        case .control(let letter):
            // Shortcuts for keyboards without usable function keys; none for undo, sign-out or
            // quit: scanners can be set to send control codes.
            let map: [Character: Int] = ["h": 1, "f": 2, "d": 3, "w": 4, "r": 5, "s": 7, "l": 9, "e": 11]
            guard let number = map[letter] else { return [] }
            return functionKey(number)
        default:
            return []
        }
    }

    /// A printable key, Backspace or Enter on the code line. Enter submits the line as a ticket
    /// code, unless the line is exactly one of the words the open question offers.
    mutating func editCodeLine(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .character(let character):
            input.append(character)
            if input.count > 512 { input = String(input.suffix(512)) }
            return []
        case .backspace:
            if !input.isEmpty { input.removeLast() }
            return []
        case .enter:
            let code = input.trimmingCharacters(in: .whitespaces)
            input = ""
            banner = nil
            guard !code.isEmpty else { return [] }
            if mode == .operatorMode, let question = staleQuestion, let choice = question.choice(typed: code) {
                return [.answerStaleBadges(choice)]
            }
            if mode == .operatorMode, let question = unpaidQuestion, question.isAnswered(by: code) {
                unpaidQuestion = nil
                return [.admitUnpaid(code: question.code)]
            }
            return [.submitCode(code)]
        default:
            return []
        }
    }

    /// F1 help (again: the scanner test), F2 search, F3 details, F4 walk-in, F5 reprint last,
    /// F6 undo, F7 sync, F8 sign out (asks first), F9 self-service on/off, F10 quit (asks first),
    /// F11 uploads the hub refused, F12 entries ⇄ exits.
    mutating func functionKey(_ number: Int) -> [ConsoleRequest] {
        if mode == .selfService {
            pinInput = ""
            screen = .pin
            return []
        }
        notice = nil
        banner = nil
        switch number {
        case 1: screen = .help
        case 2 where !offersSearch: notice = "No search on this device: its ticket shop profile is a kiosk's"
        case 2: screen = .search; query = ""; results = []; selected = 0
        case 3: screen = .details
        case 4: screen = .walkIn; field = 0
        case 5: return [.reprintLast]
        case 6: return [.undoLast]
        case 7:
            // Said at once: a hub that does not answer makes the sync take its whole timeout.
            notice = "Syncing with the hub…"
            return [.syncNow]
        case 8:
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
        case 10: openQuitPrompt(returningTo: .idle)
        case 11:
            screen = .refusedUploads
            return [.listRefused]
        case 12:
            setDirection(direction == .entry ? .exit : .entry)
            input = ""
            return [.setDirection(direction)]
        default: break
        }
        return []
    }
}
