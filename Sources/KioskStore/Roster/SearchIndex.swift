import Foundation
import CheckInCore
import GRDB

extension KioskDatabase {
    /// Search: the blind index, its background catch-up, and the queries staff type.
    public var searchIndex: SearchIndex { SearchIndex(database: self) }
}

/// Finds guests without plaintext anywhere: see ``GuestCipher/searchTokens(_:)``.
public struct SearchIndex: StoreRepository {
    let database: KioskDatabase

    /// Finds guests by name, e-mail, company or code: case- and accent-insensitive, by
    /// substring, every word of the query must match ("jose mull" finds "José Müller").
    ///
    /// The index is blind (see ``GuestCipher/searchTokens(_:)``): each segment of a term
    /// (between punctuation) of three characters or more asks for the tokens of all its
    /// triples, a two-character one (a two-character CJK name) for its pair's token or those
    /// of the triples it starts, and every candidate is confirmed on its decrypted text, which
    /// also answers terms that ask for nothing (one character, "a.b"). Guests of a bulk write
    /// not yet indexed are found among the staged ones by their tokens, confirmed the same way.
    public func search(_ query: String, limit: Int = 20) throws(StoreError) -> [GuestDetails] {
        try requireUsable()
        let terms = SearchText.fold(Sanitized.text(query))
            .split(whereSeparator: { $0.isWhitespace })
            .map(String.init)
            .filter { !$0.isEmpty }
        guard !terms.isEmpty else { return [] }
                // Every group needed, any token of a group enough (see GuestCipher.queryTokens).
        let groups = Array(Set(terms.flatMap(cipher.queryTokens)))
        let confirm = "kiosk_guest_matches(g.sealed, ?)"
        let joinedTerms = terms.joined(separator: " ")
        return try wrap {
            try writer.read { db in
                var rows: [OpenedGuestRecord]
                // No ORDER BY in SQL: a short prefix like "jos" matches thousands of guests, and
                // sorting them all before LIMIT cost 20+ ms on 100k guests; the page is sorted here.
                if groups.isEmpty {
                    // Only terms without a sequence to look up: the first guests whose text holds them.
                    rows = try OpenedGuestRecord.fetchAll(db, sql: "SELECT \(OpenedGuestRecord.columns) FROM guests g WHERE \(confirm) LIMIT ?",
                                            arguments: [joinedTerms, limit])
                } else {
                    let match = groups.map { group in
                        group.count == 1 ? "\"\(group[0])\"" : "(" + group.map { "\"\($0)\"" }.joined(separator: " OR ") + ")"
                    }.joined(separator: " AND ")
                    rows = try OpenedGuestRecord.fetchAll(db, sql: """
                        SELECT \(OpenedGuestRecord.columns) FROM guest_search s JOIN guests g ON g.rowid = s.rowid
                        WHERE guest_search MATCH ? AND \(confirm) LIMIT ?
                        """, arguments: [match, joinedTerms, limit])
                }
                // Staged guests too: a scan of every guest (no groups) has seen them already.
                if !groups.isEmpty, rows.count < limit, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM search_pending)") == true {
                    // Tokens are space-separated: " token " never matches across two of them.
                    let staged = groups.map { group in
                        "(" + group.map { _ in "instr(' ' || p.search_text || ' ', ?) > 0" }.joined(separator: " OR ") + ") AND "
                    }.joined()
                    rows += try OpenedGuestRecord.fetchAll(db, sql: """
                        SELECT \(OpenedGuestRecord.columns) FROM search_pending p JOIN guests g ON g.rowid = p.guest_rowid
                        WHERE \(staged)\(confirm) LIMIT ?
                        """, arguments: StatementArguments(groups.joined().map { " \($0) " }) + [joinedTerms, limit - rows.count])
                }
                return try rows
                    .map { try GuestDetails.fetch(db, guest: $0.guest) }
                    .sorted { $0.guest.name.localizedStandardCompare($1.guest.name) == .orderedAscending }
            }
        }
    }
}
