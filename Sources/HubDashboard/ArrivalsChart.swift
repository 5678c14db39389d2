import CheckInCore
import Foundation
import HubServer

/// The live page's arrivals chart: entries per interval as an inline SVG bar chart, drawn by
/// the `live-arrivals` template from this value (every number and label escaped there). No
/// script draws it: the first page and each server-sent update carry it ready to show.
///
/// ```swift
/// let plan = ArrivalsChart.Plan(startsAt: event.startsAt, endsAt: event.endsAt, now: .now(), zone: time.zone)
/// let counts = try await store.arrivals(event: event.id, from: plan.from, until: plan.until, bucketMilliseconds: plan.bucketMilliseconds)
/// let chart = ArrivalsChart(plan: plan, counts: counts, time: time)
/// ```
struct ArrivalsChart: Sendable, Hashable, Encodable {
    /// Which span the chart covers and in which intervals: from the event's dates, else the
    /// last hours before now; at most ``maximumBars`` intervals of a round length, starting on
    /// a round time of the event's time zone.
    struct Plan: Sendable, Hashable {
        var from: Timestamp
        var until: Timestamp
        var bucketMilliseconds: Int64
        var bars: Int

        static let maximumBars = 48
        /// Interval lengths the chart chooses from, in minutes: the shortest that fits.
        static let lengths: [Int64] = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1440]
        /// Without both dates: this much before now (or before the end).
        static let defaultSpanMilliseconds: Int64 = 6 * 3_600_000

        init(startsAt: Timestamp?, endsAt: Timestamp?, now: Timestamp, zone: TimeZone) {
            var start: Timestamp, end: Timestamp
            switch (startsAt, endsAt) {
            case (let s?, let e?) where e > s: (start, end) = (s, e)
            case (let s?, _): (start, end) = (s, max(now, s.adding(milliseconds: Self.defaultSpanMilliseconds)))
            case (nil, let e?): (start, end) = (e.adding(milliseconds: -Self.defaultSpanMilliseconds), e)
            case (nil, nil): (start, end) = (now.adding(milliseconds: -Self.defaultSpanMilliseconds), now)
            }
            let span = end.milliseconds(since: start)
            let minute: Int64 = 60_000
            var length = Self.lengths.map { $0 * minute }.first { span <= $0 * Int64(Self.maximumBars) }
                ?? 1_440 * minute * ((span / (1_440 * minute * Int64(Self.maximumBars))) + 1)
            length = max(length, 5 * minute)
            // Round times of the event's zone: 18:00, 18:15 (every zone's offset is a multiple of 15 minutes).
            let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start.milliseconds) / 1000))) * 1000
            let local = start.milliseconds &+ offset
            let aligned = (local - ((local % length) + length) % length) &- offset
            start = Timestamp(milliseconds: aligned)
            let count = Int((end.milliseconds(since: start) + length - 1) / length)
            from = start
            bucketMilliseconds = length
            bars = max(1, min(count, Self.maximumBars + 1))
            until = start.adding(milliseconds: length * Int64(bars))
        }

        /// `15 min`, `2 h`, `1 day`.
        var lengthWords: String {
            let minutes = bucketMilliseconds / 60_000
            if minutes < 60 { return "\(minutes) min" }
            if minutes < 1_440 { return "\(minutes / 60) h" }
            return minutes == 1_440 ? "1 day" : "\(minutes / 1_440) days"
        }
    }

    /// One interval with entries: its bar, and its words for a tooltip and a screen reader.
    struct Bar: Sendable, Hashable, Encodable {
        var x: String
        var y: String
        var width: String
        var height: String
        var entries: Int
        var label: String
    }

    /// A label under the time axis: the interval's start, or its day for day-long intervals.
    struct Tick: Sendable, Hashable, Encodable {
        var x: String
        var text: String
        /// `start` for the first label, `end` for one at the right edge (inside the drawing), `middle` between.
        var anchor: String
        /// Every other label: left out on a phone.
        var minor: Bool
    }

    /// Whether the page shows the chart (a value made without data shows nothing).
    var shown: Bool
    var title: String
    var summary: String
    var bars: [Bar]
    var ticks: [Tick]
    var maximum: Int
    var total: Int
    var hasEntries: Bool

    // The drawing's coordinates (the SVG's viewBox), scaled by the browser to the card's width.
    static let width = 720.0, height = 220.0
    static let left = 56.0, right = 8.0, top = 20.0, bottom = 40.0
    var viewBox = "0 0 720 220"
    var plotLeft = String(Self.left)
    var plotRight = String(Self.width - Self.right)
    var axisY = String(Self.height - Self.bottom)
    var topY = String(Self.top)
    var labelY = String(Self.height - 6)
    var maximumY = String(Self.top + 4)

    /// Nothing to show (pages rendered without a chart).
    static let hidden = ArrivalsChart(shown: false, title: "", summary: "", bars: [], ticks: [], maximum: 0, total: 0, hasEntries: false)

    private init(shown: Bool, title: String, summary: String, bars: [Bar], ticks: [Tick], maximum: Int, total: Int, hasEntries: Bool) {
        self.shown = shown
        self.title = title
        self.summary = summary
        self.bars = bars
        self.ticks = ticks
        self.maximum = maximum
        self.total = total
        self.hasEntries = hasEntries
    }

    /// - Parameter counts: entries per interval of `plan` (``ArrivalRepository``); intervals
    ///   outside the plan are ignored.
    init(plan: Plan, counts: [ArrivalCount], time: WebTime) {
        let inside = counts.filter { $0.bucket >= 0 && $0.bucket < plan.bars && $0.entries > 0 }
        let maximum = inside.map(\.entries).max() ?? 0
        let plotWidth = Self.width - Self.left - Self.right, plotHeight = Self.height - Self.top - Self.bottom
        let slot = plotWidth / Double(plan.bars)
        let gap = slot > 6 ? 2.0 : 0.5
        let spansDays = time.dateTime(plan.from).prefix(10) != time.dateTime(plan.until.adding(milliseconds: -1)).prefix(10)
        func clock(_ instant: Timestamp) -> String {
            let text = time.dateTime(instant)
            return plan.bucketMilliseconds >= 86_400_000 ? String(text.prefix(10)) : spansDays ? String(text.dropFirst(5)) : String(text.suffix(5))
        }
        func start(_ bucket: Int) -> Timestamp { plan.from.adding(milliseconds: plan.bucketMilliseconds * Int64(bucket)) }
        func format(_ value: Double) -> String { String(format: "%.1f", value) }
        bars = inside.map { count in
            let height = maximum == 0 ? 0 : max(1, plotHeight * Double(count.entries) / Double(maximum))
            return Bar(x: format(Self.left + slot * Double(count.bucket) + gap / 2), y: format(Self.top + plotHeight - height),
                       width: format(max(0.5, slot - gap)), height: format(height), entries: count.entries,
                       label: "\(clock(start(count.bucket)))–\(clock(start(count.bucket + 1))): \(count.entries) \(count.entries == 1 ? "entry" : "entries")")
        }
        // At most 6 labels, on interval starts.
        let every = max(1, (plan.bars + 5) / 6)
        let marks = Array(stride(from: 0, through: plan.bars, by: every))
        ticks = marks.enumerated().map { index, bucket in
            let text = time.dateTime(start(bucket))
            return Tick(x: format(Self.left + slot * Double(bucket)),
                        text: plan.bucketMilliseconds >= 86_400_000 ? String(text.dropFirst(5).prefix(5)) : String(text.suffix(5)),
                        anchor: index == 0 ? "start" : bucket == plan.bars ? "end" : "middle",
                        minor: index % 2 == 1)
        }
        self.maximum = maximum
        total = inside.map(\.entries).reduce(0, +)
        hasEntries = total > 0
        shown = true
        title = "Entries per \(plan.lengthWords), \(clock(plan.from))–\(clock(plan.until)) (\(time.zoneName))"
        if let busiest = inside.max(by: { ($0.entries, -$0.bucket) < ($1.entries, -$1.bucket) }) {
            summary = "\(total) \(total == 1 ? "entry" : "entries") in this span; the busiest interval, "
                + "\(clock(start(busiest.bucket)))–\(clock(start(busiest.bucket + 1))), had \(busiest.entries)."
        } else {
            summary = "No entries in this span yet."
        }
    }
}
