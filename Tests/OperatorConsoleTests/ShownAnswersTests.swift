import CheckInCore
import OperatorConsole
import Testing

/// The order's answers the ticket shop shows during check-in ("T-shirt size: M") on the panel.
@Suite struct ShownAnswersTests {
    @Test func anAdmissionShowsTheOrdersAnswersAfterTheAccessTypeCleaned() {
        let panel = ResultPanel(decision: .admitted, guestName: "Tess", accessType: "T-shirt bundle", answers: ["T-shirt size: M", "Diet: \u{1B}[2Jvegan"])
        #expect(panel.title == "Welcome, Tess")
        #expect(panel.detail == "T-shirt bundle · T-shirt size: M · Diet: [2Jvegan", "the escape is gone: nothing reaches the terminal raw")
        #expect(panel.tone == .welcome, "answers are information, not a staff note")
    }
}
