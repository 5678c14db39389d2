import Foundation
import CheckInCore
import GRDB

extension KioskDatabase {
    /// Finds guests by name, e-mail, company or code: case- and accent-insensitive, by
    /// substring, every word of the query must match ("jose mull" finds "José Müller").
    public func search(_ query: String, limit: Int = 20) throws(StoreError) -> [GuestDetails] {
        try requireUsable()
        let terms = SearchText.fold(Sanitized.text(query))
            .split(whereSeparator: { $0.isWhitespace })
            .map(String.init)
            .filter { !$0.isEmpty }
        guard !terms.isEmpty else { return [] }
        return try wrap {
            try writer.read { db in
                // Trigram FTS answers terms of three or more characters from its index; shorter
                // terms (two-character CJK names) are checked with LIKE on the matched rows.
                let indexed = terms.filter { $0.count >= 3 }
                let short = terms.filter { $0.count < 3 }
                var sql = "SELECT \(GuestRecord.columns) FROM guest_search s JOIN guests g ON g.rowid = s.rowid WHERE 1"
                var arguments: StatementArguments = []
                if !indexed.isEmpty {
                    sql += " AND guest_search MATCH ?"
                    arguments += [indexed.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")]
                }
                for term in short {
                    sql += " AND s.search_text LIKE ? ESCAPE '\\'"
                    let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
                    arguments += ["%\(escaped)%"]
                }
                // No ORDER BY in SQL: a short prefix like "jos" matches thousands of guests, and
                // sorting them all before LIMIT cost 20+ ms on 100k guests; the page is sorted here.
                sql += " LIMIT ?"
                arguments += [limit]
                var rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
                // Guests of a bulk write not yet indexed (0004_search_catch_up.sql): found by a
                // scan of their folded text, every term a substring.
                if rows.count < limit, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM search_pending)") == true {
                    let scan = "SELECT \(GuestRecord.columns) FROM search_pending p JOIN guests g ON g.rowid = p.guest_rowid WHERE "
                        + terms.map { _ in "instr(p.search_text, ?) > 0" }.joined(separator: " AND ") + " LIMIT ?"
                    rows += try Row.fetchAll(db, sql: scan, arguments: StatementArguments(terms) + [limit - rows.count])
                }
                return try rows
                    .map { try GuestRecord.details(db, guest: GuestRecord.guest($0)) }
                    .sorted { $0.guest.name.localizedStandardCompare($1.guest.name) == .orderedAscending }
            }
        }
    }
}
