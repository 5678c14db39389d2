import CheckInCore
import Foundation

/// The search list's columns, sized from the rows shown: code, access type, check-in time and
/// order get what their values need, the name the rest, the company only when the row has room
/// for it beside a readable name.
struct SearchColumns {
    var name: Int
    var company: Int
    var code: Int
    var type: Int
    var state: Int
    var order: Int

    init(_ rows: [GuestRow], width: Int) {
        func widest(_ values: [String], cap: Int) -> Int { min(cap, values.map(TerminalText.width).max() ?? 0) }
        code = widest(rows.map(\.code), cap: 20)
        type = widest(rows.map(\.accessType), cap: 14)
        state = rows.contains { $0.checkedIn != nil } ? 8 : 0
        order = widest(rows.map { $0.order.isEmpty ? "" : "order " + $0.order }, cap: 20)
        let fixed = [code, type, state, order].filter { $0 > 0 }.reduce(0) { $0 + $1 + 1 }
        let left = max(12, width - fixed)
        // A company column only beside a name of at least 24 columns.
        company = left >= 24 + 13 ? min(widest(rows.map(\.company), cap: 24), left - 24 - 1) : 0
        name = left - (company > 0 ? company + 1 : 0)
    }

    func row(_ guest: GuestRow) -> String {
        var cells = [TerminalText.pad(guest.name, width: name)]
        if company > 0 { cells.append(TerminalText.pad(guest.company, width: company)) }
        cells.append(TerminalText.pad(guest.code, width: code))
        cells.append(TerminalText.pad(guest.accessType, width: type))
        if state > 0 { cells.append(TerminalText.pad(guest.checkedIn.map { "in " + ResultPanel.clock($0.at, timeZone: .current) } ?? "", width: state)) }
        if order > 0 { cells.append(guest.order.isEmpty ? "" : "order " + guest.order) }
        return cells.joined(separator: " ")
    }
}
