import CheckInCore

/// The screens shown over the scan screen: information (help, details, the scanner test, the
/// refused uploads) and the prompts (quit, sign out, the self-service PIN). A typed character
/// goes to the code line, never to an answer: information screens close and hand it on,
/// prompts stay open with the code line above them. Only function keys answer prompts.
extension ConsoleModel {
    /// Help, details, the scanner test and the refused uploads: F1 on the help opens the scanner
    /// test, another function key does its job, a typed character closes the screen and starts
    /// the code line, any other key closes it.
    mutating func handleInformation(_ key: Key) -> [ConsoleRequest] {
        let open = screen
        screen = .idle
        switch key {
        case .function(1) where open == .help:
            screen = .scannerTest
            return []
        case .function(let number) where !(number == 11 && open == .refusedUploads) && !(number == 3 && open == .details):
            return functionKey(number)
        case .character, .backspace:
            return editCodeLine(key)
        default:
            return []
        }
    }

    mutating func handleDiagnostic(_ key: Key) -> [ConsoleRequest] {
        if key == .function(10) { openQuitPrompt(returningTo: .diagnostic) }
        return []
    }

    mutating func openQuitPrompt(returningTo screen: Screen) {
        quitReturn = screen
        diagnosticQuit = screen == .diagnostic
        self.screen = .confirmQuit
    }

    /// Only F10 quits: a scanner (or a hand-typed code) starting with "Y" must never stop the
    /// station. Any other key keeps it running; a typed character goes on to the code line.
    mutating func handleConfirmQuit(_ key: Key) -> [ConsoleRequest] {
        if key == .function(10) { return [.quit] }
        screen = diagnosticQuit ? .diagnostic : quitReturn
        if screen == .idle, case .character = key { return editCodeLine(key) }
        return []
    }

    /// ←→ choose, F8 confirms (a discard once the number of changes is on the code line), Esc
    /// cancels; typed characters and Enter work the code line as on the scan screen.
    mutating func handleSignOut(_ key: Key) -> [ConsoleRequest] {
        guard var prompt = signOutPrompt else {
            screen = .idle
            return []
        }
        switch key {
        case .character, .backspace, .enter:
            return editCodeLine(key)
        default:
            break
        }
        let outcome = prompt.handle(key, typed: input)
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
            input = ""
            if choice == .wait, prompt.pending > 0 { signingOut = SignOutProgress(waiting: prompt.pending, left: prompt.pending) }
            screen = eventPicker != nil ? .pickEvent : .idle
            return [.signOut(choice)]
        }
    }

    mutating func handlePIN(_ key: Key, now: Double) -> [ConsoleRequest] {
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
}
