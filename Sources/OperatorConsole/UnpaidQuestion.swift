import Foundation

/// "Admit anyway?" for a ticket whose order is not paid, where the ticket shop leaves it to the
/// door (pretix: a list that includes pending orders). Asked below the code line while the
/// result shows; answered only by the typed word ``word`` and Enter, so no scanned or
/// hand-typed ticket code can admit an unpaid guest by accident.
public struct UnpaidQuestion: Sendable, Equatable {
    /// The ticket's code, presented again with the staff's answer.
    public var code: String
    public var guestName: String

    public static let word = "admit"

    public init(code: String, guestName: String) {
        self.code = code
        self.guestName = guestName
    }

    /// Whether the code line holds the answer (case and surrounding spaces aside).
    func isAnswered(by typed: String) -> Bool { typed.trimmingCharacters(in: .whitespaces).lowercased() == Self.word }

    var prompt: String {
        let who = guestName.isEmpty ? "the guest" : TerminalText.clean(guestName)
        return "Not paid yet. To let \(who) in anyway, type \(Self.word.uppercased()), then Enter (anything else typed is a ticket code)."
    }
}
