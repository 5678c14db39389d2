import CheckInCore

extension ConsoleModel {
    /// Storage did not start: which migration failed, the error in full (wrapped), what is kept.
    func drawDiagnostic(into frame: inout ConsoleFrame) {
        let rows = size.rows, columns = size.columns
        for row in 2..<(rows - 1) { frame.fill(row, "", .alert) }
        frame.fill(3, "Storage did not start — this station is not scanning", .alert, centered: true)
        guard let diagnostic else { return }
        var body = ConsoleBody()
        if let migration = diagnostic.migration { body.wrapped("Migration: \(migration)", at: 2, .alert, columns: columns, indent: 2) }
        body.wrapped("Error: \(diagnostic.error)", at: 2, .alert, columns: columns, indent: 2, limit: max(2, rows - 14))
        body.add("")
        body.wrapped("Kept safe on this station: \(diagnostic.pendingCheckIns) pending check-in(s), \(diagnostic.guests) guest(s)",
                     at: 2, .alert, columns: columns, indent: 2)
        body.add("")
        body.wrapped("Contact support. Do not delete the data directory.", at: 2, .alert, columns: columns)
        if screen == .confirmQuit {
            body.add("")
            body.wrapped("Quit the station? F10 again = quit · any other key = stay", at: 2, .alert, columns: columns)
        }
        frame.place(body, from: 5, before: rows - 1)
        frame.fill(rows - 1, " F10 Quit", .bar)
    }
}
