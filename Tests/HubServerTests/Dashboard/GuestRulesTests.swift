import CheckInCore
import Foundation
import HubAPI
import Testing
@testable import HubDashboard
@testable import HubServer
@testable import HubStorage

/// The guest lookup's and the arrivals chart's decisions as values, without I/O: what a typed
/// search becomes, where a guest stands, what a manual check-in sends and logs, what the guest
/// page says after a form, which intervals the chart draws and how.
struct GuestRulesTests {
    @Test func aTypedSearchIsTrimmedBoundedFreedOfControlCharactersAndItsWildcardsMatchThemselves() {
        #expect(GuestQuery("  Ada \n").text == "Ada")
        #expect(GuestQuery("\u{1b}[31mAda\u{7}").text == "[31mAda")
        #expect(GuestQuery(String(repeating: "x", count: 5_000)).text.count == GuestQuery.maximumLength)
        #expect(GuestQuery(" \t ").isEmpty)
        #expect(GuestQuery("50%_off\\").namePattern == "%50\\%\\_off\\\\%")
        #expect(GuestQuery("AdA").lowercased == "ada")
        #expect(GuestQuery(" gala000002 ").ticketCode == "GALA000002")
    }

    @Test func aGuestsStatusComesFromTheirLastMovementAndRevokedWinsOverEverything() {
        #expect(GuestStatus.of(revoked: false, entries: 0, lastDirection: nil) == .notArrived)
        #expect(GuestStatus.of(revoked: false, entries: 1, lastDirection: .entry) == .inside)
        #expect(GuestStatus.of(revoked: false, entries: 1, lastDirection: .exit) == .checkedIn)
        #expect(GuestStatus.of(revoked: true, entries: 1, lastDirection: .entry) == .revoked)
        // An exit without an entry (flagged for review) is nobody inside, and no arrival.
        #expect(GuestStatus.of(revoked: false, entries: 0, lastDirection: .exit) == .notArrived)
        #expect(GuestStatus.allCases.map(\.words) == ["revoked", "inside", "checked in, left", "not arrived"])
    }

    @Test func aManualCheckInIsAnEntryFromADeviceNamingTheDashboardAndThePerson() {
        let olga = StaffInfo(id: "st-olga", email: "o@example.org", name: "Olga", role: .organizer)
        let now = Timestamp(milliseconds: 1_790_000_000_000)
        let upload = ManualCheckIn.upload(guestID: "G1", by: olga, at: now)
        #expect(upload.key == IdempotencyKey(deviceID: "dashboard:st-olga", guestID: "G1", scannedAt: now))
        #expect(upload.station == "Dashboard")
        #expect(upload.operatorName == "Olga")
        #expect(upload.source == .search)
        #expect(upload.direction == .entry)
        let refused = CheckInResult(key: upload.key, status: .rejected, decision: .alreadyCheckedIn, reason: "already checked in")
        let action = ManualCheckIn.action(event: "ev1", by: olga, guestID: "G1", result: refused, at: now)
        #expect(action.kind == .manualCheckIn)
        #expect(action.subject == "G1")
        #expect(action.detail == "refused: already_checked_in (already checked in)")
        #expect(ManualCheckIn.action(event: "ev1", by: olga, guestID: "G1", result: CheckInResult(key: upload.key, status: .accepted, decision: .admitted),
                                     at: now).detail == "admitted")
    }

    @Test func aRevokeReasonIsOneBoundedLineAndCannotBeLeftEmpty() {
        #expect(RevokeReason("  refunded \r\n by\tphone ")?.text == "refunded by phone")
        #expect(RevokeReason("\u{1b}[2J")?.text == "[2J")
        #expect(RevokeReason("   ") == nil)
        #expect(RevokeReason(nil) == nil)
        #expect(RevokeReason(String(repeating: "y", count: 2_000))?.text.count == RevokeReason.maximumLength)
    }

    @Test func theGuestPageSaysWhyAManualCheckInWasRefusedWithTheFirstEntrysTimeAndPlace() {
        let time = WebTime(timeZone: "Europe/Berlin")
        // 2025-11-25 10:02 in Berlin (UTC+1).
        let first = GuestMovement(deviceID: "door-a", station: "Door A", operatorName: "Alex", source: "camera", direction: "entry",
                                  status: "accepted", decision: "admitted", reason: nil, scannedAt: Timestamp(milliseconds: 1_764_061_320_000),
                                  receivedAt: Timestamp(milliseconds: 1_764_061_321_000), undone: false)
        #expect(GuestNotice(.alreadyCheckedIn).words(admission: first, facts: TicketFacts(), time: time)
            == "Not checked in again: already checked in at 10:02 at Door A by Alex.")
        #expect(GuestNotice(.admitted) == .checkedIn)
        #expect(!GuestNotice.checkedIn.isRefusal)
        #expect(GuestNotice(.revoked).isRefusal)
        #expect(GuestNotice(.revoked).words(admission: nil, facts: TicketFacts(), time: time).contains("revoked"))
        let window = TicketFacts(validFrom: Timestamp(milliseconds: 1_764_061_320_000))
        #expect(GuestNotice(.outsideWindow).words(admission: nil, facts: window, time: time)
            == "Refused: the ticket is not valid at this time (valid from 2025-11-25 10:02).")
        #expect(GuestNotice(rawValue: "<script>") == nil)
    }

    // MARK: The arrivals chart

    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2025-11-24 18:00 in Berlin.
    static let six = Timestamp(milliseconds: 1_764_003_600_000)
    static let hour: Int64 = 3_600_000

    /// Event spans and the interval length the chart picks for each.
    static let spans: [(span: Int64, length: Int64)] = [
        (3 * hour, 5 * 60_000),  // a 3-hour reception: 36 bars of 5 min
        (5 * hour, 10 * 60_000),  // an evening: 30 of 10 min
        (12 * hour, 15 * 60_000),
        (24 * hour, 30 * 60_000),
        (3 * 24 * hour, 120 * 60_000),  // a festival weekend
        (200 * 24 * hour, 5 * 24 * hour),  // beyond days: whole days, still at most 48 bars (+1 for alignment)
    ]

    @Test(arguments: spans)
    func theChartChoosesTheShortestRoundIntervalThatFitsTheEventsSpanIn48Bars(span: Int64, length: Int64) {
        let plan = ArrivalsChart.Plan(startsAt: Self.six, endsAt: Self.six.adding(milliseconds: span), now: Self.six, zone: Self.berlin)
        #expect(plan.bucketMilliseconds == length)
        #expect(plan.bars <= ArrivalsChart.Plan.maximumBars + 1)
        #expect(plan.from <= Self.six)
        #expect(plan.until >= Self.six.adding(milliseconds: span))
    }

    @Test func intervalsStartOnRoundTimesOfTheEventsZone() {
        // 18:07 Berlin, a 10-hour span: 15-minute bars from 18:00.
        let start = Self.six.adding(milliseconds: 7 * 60_000)
        let plan = ArrivalsChart.Plan(startsAt: start, endsAt: start.adding(milliseconds: 10 * Self.hour), now: start, zone: Self.berlin)
        #expect(plan.from == Self.six)
        // Two-hour bars in Kolkata (UTC+5:30) start at an even local hour, not a UTC one.
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        let long = ArrivalsChart.Plan(startsAt: start, endsAt: start.adding(milliseconds: 90 * Self.hour), now: start, zone: kolkata)
        let local = long.from.milliseconds + Int64(kolkata.secondsFromGMT()) * 1000
        #expect(local % long.bucketMilliseconds == 0)
    }

    @Test func withoutDatesTheChartShowsTheLastSixHours() {
        let plan = ArrivalsChart.Plan(startsAt: nil, endsAt: nil, now: Self.six, zone: Self.berlin)
        #expect(plan.from == Self.six.adding(milliseconds: -6 * Self.hour))
        #expect(plan.until >= Self.six)
        #expect(plan.bucketMilliseconds == 10 * 60_000)
    }

    @Test func barsAreDrawnOnlyForIntervalsWithEntriesScaledToTheBusiestWithWordsForEach() throws {
        let time = WebTime(timeZone: "Europe/Berlin")
        let plan = ArrivalsChart.Plan(startsAt: Self.six, endsAt: Self.six.adding(milliseconds: 3 * Self.hour), now: Self.six, zone: Self.berlin)
        let chart = ArrivalsChart(plan: plan, counts: [
            ArrivalCount(bucket: 2, entries: 4), ArrivalCount(bucket: 3, entries: 8), ArrivalCount(bucket: 999, entries: 50),
        ], time: time)
        #expect(chart.bars.map(\.entries) == [4, 8])
        #expect(chart.bars.map(\.label) == ["18:10–18:15: 4 entries", "18:15–18:20: 8 entries"])
        let tallest = try #require(Double(chart.bars[1].height)), half = try #require(Double(chart.bars[0].height))
        #expect(abs(tallest - 2 * half) < 0.2)
        #expect(chart.total == 12)
        #expect(chart.maximum == 8)
        #expect(chart.title == "Entries per 5 min, 18:00–21:00 (Europe/Berlin)")
        #expect(chart.summary == "12 entries in this span; the busiest interval, 18:15–18:20, had 8.")
        #expect(chart.ticks.first?.text == "18:00")
        // The first and last labels stay inside the drawing; every other one between makes way on a phone.
        #expect(chart.ticks.map(\.anchor) == ["start", "middle", "middle", "middle", "middle", "middle", "end"])
        #expect(chart.ticks.map(\.minor) == [false, true, false, true, false, true, false])
        #expect(chart.ticks.last?.text == "21:00")
        #expect(chart.ticks.count <= 7)
        let empty = ArrivalsChart(plan: plan, counts: [], time: time)
        #expect(empty.bars.isEmpty)
        #expect(empty.summary == "No entries in this span yet.")
    }

    @Test func theChartRendersAsAnAccessibleInlineSVGInsideTheLivePagesUpdate() {
        let time = WebTime(timeZone: "Europe/Berlin")
        let plan = ArrivalsChart.Plan(startsAt: Self.six, endsAt: Self.six.adding(milliseconds: 3 * Self.hour), now: Self.six, zone: Self.berlin)
        let chart = ArrivalsChart(plan: plan, counts: [ArrivalCount(bucket: 0, entries: 3)], time: time)
        let stats = EventStats(expected: 3, checkedIn: 3, inside: 3, duplicates: 0, conflicts: 0, accessTypes: [], stations: [])
        let html = LiveCounts(stats, recent: [], arrivals: chart, at: Self.six, time: time).update.groupsHTML
        #expect(html.contains(#"<svg data-test="dashboard-arrivals-chart""#))
        #expect(html.contains(#"role="img""#))
        #expect(html.contains(#"<title id="arrivals-title">Entries per 5 min, 18:00–21:00 (Europe/Berlin)</title>"#))
        #expect(html.contains(#"data-test="dashboard-arrivals-bar" data-entries="3""#))
        #expect(html.contains("<title>18:00–18:05: 3 entries</title>"))
        // Without a chart (pages that have none), nothing is drawn.
        #expect(!LiveCounts(stats, recent: [], at: Self.six, time: time).groupsHTML.contains("<svg"))
    }
}
