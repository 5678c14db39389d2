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

    @Test func aFlaggedExitCarriesItsFlagByNameAndOlderAnswersDecodeWithout() throws {
        let key = IdempotencyKey(deviceID: "d", guestID: "g", scannedAt: Timestamp(milliseconds: 5))
        let result = CheckInResult(key: key, status: .accepted, decision: .admitted, flag: .exitWithoutEntry)
        let text = String(decoding: try HubJSON.encoder().encode(result), as: UTF8.self)
        #expect(text.contains(#""flag":"exit_without_entry""#))
        let older = #"{"key": {"deviceID": "d", "guestID": "g", "scannedAt": 5}, "status": "accepted", "decision": "admitted"}"#
        #expect(try HubJSON.decoder().decode(CheckInResult.self, from: Data(older.utf8)).flag == nil)
        let list = ConflictList(conflicts: [], flaggedExits: [
            FlaggedExit(guestID: "g", flag: .exitWithoutEntry, exit: PreviousCheckIn(by: "Sam", station: "Door B", deviceID: "d", at: Timestamp(milliseconds: 9))),
        ])
        #expect(try HubJSON.decoder().decode(ConflictList.self, from: try HubJSON.encoder().encode(list)) == list)
        #expect(try HubJSON.decoder().decode(ConflictList.self, from: Data(#"{"conflicts": []}"#.utf8)).flaggedExits == nil)
    }

    @Test func onlyAPageWithoutAnyChangeIsEmpty() {
        #expect(RosterPage(cursor: 7, hasMore: false).isEmpty)
        #expect(!RosterPage(cursor: 7, hasMore: true).isEmpty)
        #expect(!RosterPage(cursor: 8, hasMore: false, deletedGuestIDs: ["g"]).isEmpty)
    }

    @Test func eventPathsPutTheEventIDInOneComponent() {
        #expect(HubPaths.checkIns(event: "ev_1") == "/v1/events/ev_1/check-ins")
        #expect(HubPaths.roster(event: "ev_1") == "/v1/events/ev_1/roster")
    }

    @Test func rolesAreOrdered() {
        #expect(StaffRole.staff < .support && StaffRole.support < .organizer)
    }
}
