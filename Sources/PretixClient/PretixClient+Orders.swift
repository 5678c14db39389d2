import NIOHTTP1

/// One page of an event's orders, and where the download stands after it.
public struct PretixOrderPage: Sendable {
    public var orders: [PretixOrder]
    /// The orders pretix counts for this download (all of them the first time, the changed ones after).
    public var count: Int
    /// The next page, or `nil` when this was the last.
    public var next: PretixNextPage?
    /// The cursor to keep with this page's orders (one transaction): after the last page the
    /// download is complete.
    public var cursor: PretixOrderCursor
}

extension PretixClient {
    /// A page of event `event`'s orders: the first page of the download `cursor` calls for
    /// (everything, the rest of an interrupted first download, or the changes since the last
    /// one), or the page `next` points to.
    /// - Throws: ``PretixError/notAllowedByProfile(profile:what:)`` before asking, when the
    ///   device's security profile has no order download; ``PretixError/malformed(_:)`` for a
    ///   page without pretix's `X-Page-Generated`, or a next page elsewhere.
    public func ordersPage(event: String, cursor: PretixOrderCursor, next: PretixNextPage? = nil) async throws(PretixError) -> PretixOrderPage {
        let device = try requireDevice()
        guard device.securityProfile.downloadsOrders else {
            throw .notAllowedByProfile(profile: device.securityProfile.identifier, what: "downloading the orders (an offline roster)")
        }
        let answer = try await page(PretixOrder.self, try eventPath(event, "orders/"), query: cursor.firstPageQuery, next: next,
                                    what: "the orders of \(event)")
        guard let generated = answer.response.headers.first(name: "X-Page-Generated").flatMap(PretixTime.init) else {
            throw .malformed("an orders page without pretix's X-Page-Generated time (pretix older than 3.x?)")
        }
        let updated = cursor.after(page: next == nil, generated: generated.text, lastCreated: answer.page.results.last?.datetime.text,
                                   isLast: answer.next == nil)
        return PretixOrderPage(orders: answer.page.results, count: answer.page.count, next: answer.next, cursor: updated)
    }
}
