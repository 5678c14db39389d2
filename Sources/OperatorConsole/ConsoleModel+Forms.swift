import CheckInCore
import Foundation

/// The two forms: search as you type (Enter checks the chosen guest in, Ctrl-O their whole
/// order) and the walk-in registration.
extension ConsoleModel {
    mutating func handleSearch(_ key: Key) -> [ConsoleRequest] {
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

    mutating func handleWalkIn(_ key: Key) -> [ConsoleRequest] {
        switch key {
        case .character(let character) where field < 3:
            edit { $0.append(character) }
        case .backspace where field < 3:
            edit { if !$0.isEmpty { $0.removeLast() } }
        case .left where field == 3, .right where field == 3, .character(" ") where field == 3:
            guard !accessChoices.isEmpty else { break }
            let step = key == .left ? accessChoices.count - 1 : 1
            // With none chosen yet, → takes the first and ← the last.
            let next = accessChoices.firstIndex { $0.id == draft.accessTypeID }.map { ($0 + step) % accessChoices.count }
                ?? (key == .left ? accessChoices.count - 1 : 0)
            draft.accessTypeID = accessChoices[next].id
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

    mutating func edit(_ change: (inout String) -> Void) {
        switch field {
        case 0: change(&draft.name)
        case 1: change(&draft.email)
        case 2: change(&draft.company)
        default: break
        }
        if draft.name.count > 200 { draft.name = String(draft.name.prefix(200)) }
        notice = nil
    }
}
