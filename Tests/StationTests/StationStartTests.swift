import Station
import Testing

/// Where the station day starts, from what the data directory holds and the configuration.
struct StationStartTests {
    func facts(signedIn: Bool = false, chosen: String? = nil, complete: Bool = false, imported: Int = 0, configured: String? = nil) -> StationStart.Facts {
        StationStart.Facts(signedInAs: signedIn ? "Ada" : nil, chosenEvent: chosen, chosenEventComplete: complete, importedGuests: imported,
                           configuredEvent: configured)
    }

    @Test func anEmptyStationSignsInAndALocalRosterScans() {
        #expect(StationStart.decide(facts()) == .signIn)
        #expect(StationStart.decide(facts(imported: 10)) == .scan)
        #expect(StationStart.decide(facts(chosen: "Summit", complete: true)) == .scan, "a hub roster kept at sign-out")
        #expect(StationStart.decide(facts(configured: "summit")) == .signIn, "the configured event waits for a sign-in")
    }

    @Test func theEventChosenOnTheStationWinsOverTheConfiguredOne() {
        #expect(StationStart.decide(facts(signedIn: true)) == .pickEvent(signedInAs: "Ada"))
        #expect(StationStart.decide(facts(signedIn: true, configured: "summit")) == .download(event: "summit"))
        #expect(StationStart.configuredEventToUse(facts(signedIn: true, configured: "summit")) == "summit")
        #expect(StationStart.decide(facts(signedIn: true, chosen: "Gala", configured: "summit")) == .download(event: "Gala"))
        #expect(StationStart.configuredEventToUse(facts(signedIn: true, chosen: "Gala", configured: "summit")) == nil)
        #expect(StationStart.decide(facts(signedIn: true, chosen: "Gala", complete: true, configured: "summit")) == .scan)
    }
}
