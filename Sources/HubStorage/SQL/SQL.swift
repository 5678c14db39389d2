/// One statement, written once for both dialects: PostgreSQL's `$1, $2…` placeholders and the
/// values bound to them. SQLite reads the same text with `?1, ?2…` (``sqliteText``).
///
/// Interpolated values are bound, never spliced into the text:
/// ```swift
/// let query: SQL = "SELECT * FROM events WHERE id = \(id)"   // "… id = $1", binds [id]
/// ```
/// An interpolated ``SQL`` (a dialect's fragment, a shared clause) is spliced with its own
/// placeholders renumbered after the ones before it.
public struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation {
    public private(set) var text: String
    public private(set) var binds: [SQLValue]

    /// A statement written with explicit `$n` placeholders (the shared query texts), bound to `binds`.
    public init(_ text: String, binds: [SQLValue] = []) {
        self.text = text
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(stringInterpolation.text, binds: stringInterpolation.binds)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var binds: [SQLValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A value, bound.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            binds.append(value.sqlValue)
            text += "$\(binds.count)"
        }

        /// A fragment, spliced with its placeholders renumbered.
        public mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.renumbered(after: binds.count)
            binds += fragment.binds
        }

        /// Text that is no value: a column or table name chosen by the code, never by input.
        public mutating func appendInterpolation(raw: String) {
            text += raw
        }
    }

    /// The text with every `$n` moved up by `offset`.
    func renumbered(after offset: Int) -> String {
        guard offset > 0, !binds.isEmpty else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var digits = ""
        var inPlaceholder = false
        func flush() {
            if inPlaceholder { result += "$" + (Int(digits).map { String($0 + offset) } ?? digits) }
            digits = ""
            inPlaceholder = false
        }
        for character in text {
            if inPlaceholder, character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            flush()
            if character == "$" { inPlaceholder = true } else { result.append(character) }
        }
        flush()
        return result
    }

    /// SQLite spells numbered parameters `?1`; the shared texts never hold a `$` otherwise.
    public var sqliteText: String { String(text.map { $0 == "$" ? "?" : $0 }) }
}
