import CheckInCore
import Station
import Testing

@Suite struct CheckInFlowTests {
    @Test func placeholder() { #expect(CheckInFlow().phase == .ready) }
}
