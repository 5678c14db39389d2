/// One page of a pretix list: at most 50 results, the total, and the next page's address.
struct PretixPage<Element: Decodable & Sendable>: Decodable, Sendable {
    var count: Int
    var next: String?
    var results: [Element]
}

/// Where the next page of a list is: pretix's `next` address reduced to its query, asked of the
/// same server and path as the first page (a `next` on another host or path is refused: the
/// device token goes nowhere else), and numbered so that a server sending the same page again
/// cannot keep the station paging for ever.
public struct PretixNextPage: Sendable, Hashable {
    /// The query of pretix's `next` (it repeats the first page's filters, with `page=N`).
    var query: [(String, String)]
    /// The number of that page.
    var number: Int

    public static func == (lhs: PretixNextPage, rhs: PretixNextPage) -> Bool {
        lhs.number == rhs.number && lhs.query.elementsEqual(rhs.query, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        for (name, value) in query {
            hasher.combine(name)
            hasher.combine(value)
        }
    }
}
