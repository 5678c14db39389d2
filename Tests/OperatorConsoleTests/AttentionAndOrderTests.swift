import CheckInCore
import Testing
@testable import OperatorConsole

/// A ticket's staff note on the result panel, and a whole order from the search list.
@Suite struct AttentionAndOrderTests {
    @Test func anAdmissionWithAStaffNoteHasItsOwnToneBellsAndBand() {
        let panel = ResultPanel(decision: .admitted, guestName: "Vera", accessType: "VIP", attention: "Hand out the VIP lanyard")
        #expect(panel.tone == .attention && panel.tone.bells == 4)
        #expect(panel.note == "Staff: Hand out the VIP lanyard")
        var model = ConsoleModel()
        model.show(panel, now: 0)
        let frame = model.frame()
        #expect(frame.runs.contains { $0.text.contains("Staff: Hand out the VIP lanyard") && $0.style == .panel(.attention) })
        #expect(frame.runs.contains { $0.text.contains("Welcome, Vera") && $0.style == .panel(.welcome) })
        #expect(ResultPanel(decision: .admitted, guestName: "Ana", accessType: "VIP", attention: nil).tone == .welcome)
        #expect(ResultPanel(decision: .revoked, guestName: "Ana", accessType: nil, attention: "note").note == nil, "a refusal shows no note")
    }

    @Test func inSelfServiceTheAttendeeIsAskedToSeeStaffInsteadOfReadingTheNote() {
        var model = ConsoleModel(pin: "4321", selfService: true)
        model.show(ResultPanel(decision: .admitted, guestName: "Vera", accessType: "VIP", attention: "Hand out the VIP lanyard"), now: 0)
        let text = model.frame().text
        #expect(text.contains("Please see a member of staff"))
        #expect(!text.contains("lanyard"))
    }

    @Test func ctrlOInTheSearchListChecksInTheWholeOrderOfTheSelectedGuest() {
        var model = ConsoleModel()
        model.handle(.function(2), now: 0)
        model.handle(.character("l"), now: 0)
        model.searchResults(for: "l", [
            GuestRow(id: "1", code: "SEC-ANA", name: "Ana Lima", email: "", company: "", accessType: "Day", checkedIn: nil, order: "FAM01"),
            GuestRow(id: "2", code: "SEC-LEO", name: "Leo", email: "", company: "", accessType: "Day", checkedIn: nil),
        ])
        model.size = TerminalSize(rows: 40, columns: 120)
        #expect(model.frame().text.contains("order FAM01"))
        #expect(model.frame().text.contains("Ctrl-O whole order FAM01"))
        model.handle(.down, now: 0)
        #expect(model.handle(.control("o"), now: 0).isEmpty, "a ticket without an order has no order to check in")
        model.handle(.up, now: 0)
        #expect(model.handle(.control("o"), now: 0) == [.checkInOrder(code: "SEC-ANA")])
        #expect(model.screen == .idle)
    }
}
