import OperatorConsole
import Testing

/// A device whose ticket shop keeps the guest list from it (pretix's kiosk profile) offers no search.
@Suite struct KioskProfileSearchTests {
    @Test func withoutSearchF2SaysSoAndTheKeysDoNotOfferIt() {
        var model = ConsoleModel()
        model.offersSearch = false
        model.handle(.function(2), now: 0)
        #expect(model.screen == .idle)
        #expect(model.notice == "No search on this device: its ticket shop profile is a kiosk's")
        #expect(!model.frame().text.contains("F2 Search"))
        model.offersSearch = true
        #expect(model.frame().text.contains("F2 Search"))
    }
}
