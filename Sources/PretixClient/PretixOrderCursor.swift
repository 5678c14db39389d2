/// Where the station's copy of an event's orders stands, so each download asks only for what
/// is new (libpretixsync's order download, which pretixSCAN has used for years):
///
/// - The first download pages through every order by creation time. The first page's
///   `X-Page-Generated` (pretix's clock, when the page was made) is kept: everything that
///   changes from then on comes with the next delta.
/// - Interrupted (a crash, pretix gone), it resumes from the last order received
///   (`created_since`), not from the start.
/// - Then each download asks for the orders modified since the last complete one
///   (`modified_since`, newest changes first); a check-in at another door changes its order, so
///   other devices' scans arrive this way too. Only a complete delta moves the point on.
///
/// The caller keeps the cursor of each page in the same transaction as the page's orders: a
/// kill at any point repeats at most one page.
public struct PretixOrderCursor: Sendable, Hashable, Codable {
    enum State: Sendable, Hashable, Codable {
        /// Nothing downloaded yet.
        case fresh
        /// The first download is under way (or was interrupted) after the order created at
        /// `lastCreated`; `since` is its first page's time.
        case partial(since: String, lastCreated: String?)
        /// Complete: the next delta asks for changes since `since`.
        case current(since: String)
    }

    var state: State
    /// The first page time of the delta under way: `since` once the delta completes.
    var refreshing: String?

    /// No order downloaded yet.
    public static let fresh = PretixOrderCursor(state: .fresh, refreshing: nil)

    /// Whether the first download completed: the copy is whole, later downloads are deltas.
    public var isComplete: Bool {
        if case .current = state { return true }
        return false
    }

    /// pretix's time of the last complete download's first page (`nil` before one completed).
    public var since: String? {
        switch state {
        case .fresh: nil
        case .partial(let since, _), .current(let since): since
        }
    }

    /// The query of the first page of the next download, after pretixSCAN's own filters (no
    /// test-mode orders, none of the payment and download fields a door does not need).
    var firstPageQuery: [(String, String)] {
        var query: [(String, String)] = [("testmode", "false")]
        for excluded in ["downloads", "payment_date", "payment_provider", "fees", "positions.downloads", "payments", "refunds"] {
            query.append(("exclude", excluded))
        }
        switch state {
        case .fresh:
            query.append(("ordering", "datetime"))
        case .partial(_, let lastCreated):
            query.append(("ordering", "datetime"))
            if let lastCreated { query.append(("created_since", lastCreated)) }
        case .current(let since):
            query.append(("ordering", "-last_modified"))
            query.append(("modified_since", since))
        }
        return query
    }

    /// The cursor once a page was received: `generated` is its `X-Page-Generated`,
    /// `lastCreated` the creation time of its last order, `isLast` whether no page follows.
    func after(page isFirst: Bool, generated: String, lastCreated: String?, isLast: Bool) -> PretixOrderCursor {
        var next = self
        switch state {
        case .fresh:
            next.state = .partial(since: generated, lastCreated: lastCreated)
        case .partial(let since, let previous):
            next.state = .partial(since: since, lastCreated: lastCreated ?? previous)
        case .current:
            // A delta starts over from its old point until it completes.
            if isFirst { next.refreshing = generated }
        }
        if isLast {
            switch next.state {
            case .fresh: break
            case .partial(let since, _): next.state = .current(since: since)
            case .current(let since): next.state = .current(since: next.refreshing ?? since)
            }
            next.refreshing = nil
        }
        return next
    }
}
