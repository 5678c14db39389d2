import CheckInCore
import Foundation
import HubAPI
import Testing

@Suite struct WireFormatTests {
    @Test func checkInBatchRoundTripsWithMillisecondTimestamps() throws {
        let key = IdempotencyKey(deviceID: "dev-1", guestID: "g-7", scannedAt: Timestamp(milliseconds: 1_764_000_000_123))
        let batch = CheckInBatch(items: [CheckInUpload(key: key, station: "Door 2", operatorName: "Alex", source: .camera)])
        let data = try HubJSON.encoder().encode(batch)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"scannedAt\":1764000000123"))
        #expect(try HubJSON.decoder().decode(CheckInBatch.self, from: data) == batch)
    }

    @Test func resultsUseTheDecisionNamesOfCheckInCore() throws {
        let key = IdempotencyKey(deviceID: "d", guestID: "g", scannedAt: Timestamp(milliseconds: 5))
        let result = CheckInResult(
            key: key, status: .rejected, decision: .alreadyCheckedIn,
            previous: PreviousCheckIn(by: "Alex", station: "Door 2", deviceID: "d0", at: Timestamp(milliseconds: 1)))
        let text = String(decoding: try HubJSON.encoder().encode(result), as: UTF8.self)
        #expect(text.contains("\"decision\":\"already_checked_in\""))
        #expect(text.contains("\"status\":\"rejected\""))
    }

    @Test func eventPathsPutTheEventIDInOneComponent() {
        #expect(HubPaths.checkIns(event: "ev_1") == "/v1/events/ev_1/check-ins")
        #expect(HubPaths.roster(event: "ev_1") == "/v1/events/ev_1/roster")
    }

    @Test func rolesAreOrdered() {
        #expect(StaffRole.staff < .support && StaffRole.support < .organizer)
    }
}
