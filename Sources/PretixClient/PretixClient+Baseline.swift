import Foundation
import NIOHTTP1

extension PretixClient {
    /// What a plain HTTP client does with an event's orders: every page of the same first
    /// download the station makes (same query, same transport), following pretix's `next`, read
    /// and not decoded beyond that link. The baseline of `kiosk bench pretix`.
    /// - Returns: the pages and bytes read.
    public func pageThroughOrders(event: String) async throws(PretixError) -> (pages: Int, bytes: Int) {
        let path = try eventPath(event, "orders/")
        var pages = 0, bytes = 0
        var next: PretixNextPage?
        repeat {
            let response = try await exchange(.GET, path, query: next?.query ?? PretixOrderCursor.fresh.firstPageQuery)
            guard response.status == 200 else { throw failure(response, doing: "paging through the orders") }
            pages += 1
            bytes += response.body.count
            let link = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["next"] as? String
            next = try following(link, after: next, path: path)
        } while next != nil
        return (pages, bytes)
    }
}
