import Foundation
import Testing
@testable import PretixClient

@Suite struct PretixOrderCursorTests {
    func value(_ query: [(String, String)], _ name: String) -> String? { query.last { $0.0 == name }?.1 }

    @Test func theFirstDownloadPagesByCreationAndKeepsTheFirstPagesTime() {
        var cursor = PretixOrderCursor.fresh
        #expect(value(cursor.firstPageQuery, "ordering") == "datetime" && value(cursor.firstPageQuery, "modified_since") == nil)
        #expect(value(cursor.firstPageQuery, "testmode") == "false")
        #expect(cursor.firstPageQuery.filter { $0.0 == "exclude" }.count == 7)
        cursor = cursor.after(page: true, generated: "T1", lastCreated: "C1", isLast: false)
        #expect(!cursor.isComplete && cursor.since == "T1")
        cursor = cursor.after(page: false, generated: "T2", lastCreated: "C2", isLast: true)
        #expect(cursor.isComplete && cursor.since == "T1", "the first page's time, not the last's")
        #expect(value(cursor.firstPageQuery, "ordering") == "-last_modified" && value(cursor.firstPageQuery, "modified_since") == "T1")
    }

    @Test func anInterruptedFirstDownloadResumesAfterTheLastOrderReceived() {
        var cursor = PretixOrderCursor.fresh.after(page: true, generated: "T1", lastCreated: "C1", isLast: false)
        cursor = cursor.after(page: false, generated: "T2", lastCreated: "C2", isLast: false)
        // Interrupted here: the next download resumes.
        #expect(value(cursor.firstPageQuery, "ordering") == "datetime" && value(cursor.firstPageQuery, "created_since") == "C2")
        cursor = cursor.after(page: true, generated: "T9", lastCreated: nil, isLast: true)
        #expect(cursor.isComplete && cursor.since == "T1", "changes since the interrupted download's start still come with the next delta")
    }

    @Test func aDeltaMovesOnOnlyOnceComplete() {
        let current = PretixOrderCursor.fresh.after(page: true, generated: "T1", lastCreated: "C1", isLast: true)
        let midway = current.after(page: true, generated: "T5", lastCreated: "C9", isLast: false)
        #expect(midway.since == "T1" && value(midway.firstPageQuery, "modified_since") == "T1", "an interrupted delta starts over")
        let done = midway.after(page: false, generated: "T6", lastCreated: "C3", isLast: true)
        #expect(done.since == "T5")
        #expect(current.after(page: true, generated: "T7", lastCreated: nil, isLast: true).since == "T7")
    }

    @Test func theCursorIsKeptAsJSONAndReadBackTheSame() throws {
        let cursor = PretixOrderCursor.fresh.after(page: true, generated: "2026-11-28T01:13:23.873956Z", lastCreated: "2026-11-25T01:12:55Z", isLast: false)
        let kept = try JSONEncoder().encode(cursor)
        #expect(try JSONDecoder().decode(PretixOrderCursor.self, from: kept) == cursor)
    }
}
