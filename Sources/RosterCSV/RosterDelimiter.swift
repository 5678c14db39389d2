import CSV

/// The field delimiter of a roster file: comma, semicolon (what spreadsheets in most of Europe
/// write, pretix's "Excel" variant) or tab (spreadsheets' "Unicode text").
public enum RosterDelimiter: String, Sendable, Equatable, CaseIterable {
    case comma = ","
    case semicolon = ";"
    case tab = "\t"

    var scalar: Unicode.Scalar { rawValue.unicodeScalars.first! }

    /// For messages: "comma", "semicolon", "tab".
    public var name: String {
        switch self {
        case .comma: "comma"
        case .semicolon: "semicolon"
        case .tab: "tab"
        }
    }

    /// The delimiter whose reading of the header row recognises the most columns; on a tie the
    /// one that splits it into more fields, then the comma. A header recognised by none (no
    /// ticket code column) is read with the comma, whose error then names what was found.
    static func detect(headerOf text: String) -> RosterDelimiter {
        let header = String(String.UnicodeScalarView(text.unicodeScalars.prefix { $0 != "\n" && $0 != "\r" }))
        var best = (delimiter: RosterDelimiter.comma, recognised: 0, fields: 0)
        for delimiter in allCases {
            guard let reader = try? CSVReader(string: header, hasHeaderRow: false, trimFields: false, delimiter: delimiter.scalar),
                  let fields = reader.next() else { continue }
            let recognised = RosterColumns.recognisedCount(fields)
            if recognised > best.recognised || (recognised == best.recognised && recognised > 0 && fields.count > best.fields) {
                best = (delimiter, recognised, fields.count)
            }
        }
        return best.delimiter
    }
}
