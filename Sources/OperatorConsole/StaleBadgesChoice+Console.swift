import CheckInCore
import Foundation

extension StaleBadgesChoice {
    /// The word the operator types (then Enter) to give this answer: a word, not a letter, so
    /// no key of a ticket code typed by hand answers the question.
    public var word: String {
        switch self {
        case .printAll: "print"
        case .printOnOtherPrinter: "other"
        case .cancel: "cancel"
        }
    }

    /// What the answer does, as the question lists it.
    public var meaning: String {
        switch self {
        case .printAll: "print them all now, in order"
        case .printOnOtherPrinter: "print them on the other printer"
        case .cancel: "cancel them (hand the badges out at the desk)"
        }
    }
}

extension StaleBadgesQuestion {
    /// The answer `typed` (a line typed on the code line) gives, if it is one of the offered words.
    public func choice(typed: String) -> StaleBadgesChoice? {
        let word = typed.trimmingCharacters(in: .whitespaces).lowercased()
        return choices.first { $0.word == word }
    }
}
