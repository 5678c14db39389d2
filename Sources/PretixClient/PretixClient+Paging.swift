import Foundation
import NIOHTTP1

extension PretixClient {
    /// One page of the list at `path`: the first (with `query`) or the one `next` points to.
    /// - Returns: the page, its answer (for headers), and where the next page is.
    func page<Element: Decodable & Sendable>(
        _ type: Element.Type, _ path: String, query: [(String, String)], next: PretixNextPage?, what: String
    ) async throws(PretixError) -> (page: PretixPage<Element>, response: PretixResponse, next: PretixNextPage?) {
        let response = try await exchange(.GET, path, query: next?.query ?? query)
        guard response.status == 200 else { throw failure(response, doing: what) }
        let page = try decode(PretixPage<Element>.self, from: response, what: what)
        return (page, response, try following(page.next, after: next, path: path))
    }

    /// Every element of the list at `path`, page after page (small lists: the catalog).
    func all<Element: Decodable & Sendable>(_ type: Element.Type, _ path: String, query: [(String, String)] = [],
                                             what: String) async throws(PretixError) -> [Element] {
        var elements: [Element] = []
        var next: PretixNextPage?
        repeat {
            let answer = try await page(Element.self, path, query: query, next: next, what: what)
            elements += answer.page.results
            next = answer.next
        } while next != nil
        return elements
    }

    /// Where pretix's `next` points, checked: the same list (its path ends in `path`), page
    /// number one above the last, within ``maximumPages``.
    func following(_ next: String?, after current: PretixNextPage?, path: String) throws(PretixError) -> PretixNextPage? {
        guard let next else { return nil }
        guard next.utf8.count <= 8_192, let components = URLComponents(string: next),
              components.percentEncodedPath.hasSuffix("/api/v1/" + path) else {
            throw .malformed("the next page is not on the same list")
        }
        let query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        let expected = (current?.number ?? 1) + 1
        guard let number = query.last(where: { $0.0 == "page" }).flatMap({ Int($0.1) }), number == expected else {
            throw .malformed("the next page is not page \(expected)")
        }
        guard number <= maximumPages else { throw .malformed("more than \(maximumPages) pages") }
        return PretixNextPage(query: query, number: number)
    }
}
