import CheckInCore
import Foundation
import HubAPI
import KioskTestSupport
import Testing

/// Security review F11 against a real `checkin-hub serve`: the dashboard's three exports, as an
/// organizer downloads them, never start a cell a spreadsheet would run as a formula, also when
/// white space, a no-break space or a full-width sign comes first, and when a program splits
/// the line at `;` (Excel in a semicolon locale) or at tabs.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct ExportFormulaProcessTests {
    /// What a station may send as a walk-in's name, company, station and operator.
    static let hostile = [" =1+1", "\u{00A0}=1+1", "\u{3000}@SUM(A1)", "\u{FF1D}1+1", "\u{FF0B}1", "\u{FF0D}1", "\u{FF20}A1", "x;=1+1",
                          "a; b;\u{00A0}-3", "tab\t+4", "two\r\n=5+5", "=HYPERLINK(\"http://x\")",
                          // A quote with a combining mark: one Character, two scalars; a CSV reader sees the quote.
                          "x\"\u{0301},=6+6"]

    /// The first characters that make a spreadsheet cell a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]

    /// The cells a program splitting `text` at `separator` (and at line ends) would make: quotes
    /// honoured for `,` (the file's own dialect, RFC 4180), ignored for another separator (Excel
    /// in a semicolon locale reading a comma file). Scalar by scalar, as a CSV reader reads.
    static func cells(_ text: String, splitAt separator: Unicode.Scalar) -> [String] {
        var cells: [String] = [], current = String.UnicodeScalarView(), quoted = false
        for scalar in text.unicodeScalars {
            if separator == ",", scalar == "\"" {
                quoted.toggle()
            } else if !quoted, scalar == separator || scalar == "\n" {
                cells.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        cells.append(String(current))
        return cells
    }

    /// Whether a cell, read by a program that drops white space and quote marks before it, starts a formula.
    static func startsAFormula(_ cell: String) -> Bool {
        let first = cell.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\"" }
        return first.map(formulaStarts.contains) ?? false
    }

    @Test func noExportedCellStartsAFormulaInAnyDialect() async throws {
        let hub = try RealHub(guests: 1)
        defer { hub.remove() }
        let organizer = (email: "olga@example.org", password: "organizer pass 1")
        try hub.addStaff(email: organizer.email, name: "Olga", role: "organizer", password: organizer.password)
        // A station of the hub's check-in staff: each hostile text as a walk-in admitted there.
        let pair = try await HubClient(base: hub.url).post(HubPaths.signIn, SignInRequest(email: hub.email, password: hub.password), as: TokenPair.self)
        let door = HubClient(base: hub.url, token: pair.accessToken)
        let registered = try await door.send("POST", HubPaths.stations, json: StationRegistrationRequest(name: "Door", deviceID: "dev-x",
                                                                                                      deviceSecret: "secret-of-dev-x-0000"))
        try #require(registered.status == 200)
        let now = Timestamp.now()
        for (index, text) in Self.hostile.enumerated() {
            let walkIn = WalkInUpload(guestID: "w\(index)", code: "W-\(index)", name: text, company: text, accessTypeID: "general",
                                      deviceID: "dev-x", station: text, operatorName: text, createdAt: now)
            #expect(try await door.send("POST", HubPaths.walkIns(event: hub.eventID), json: WalkInBatch(items: [walkIn])).status == 200)
            let checkIn = CheckInUpload(key: IdempotencyKey(deviceID: "dev-x", guestID: "w\(index)", scannedAt: now.adding(milliseconds: Int64(index))),
                                        station: text, operatorName: text, source: .walkIn)
            #expect(try await door.send("POST", HubPaths.checkIns(event: hub.eventID), json: CheckInBatch(items: [checkIn])).status == 200)
        }

        let olga = DashboardClient(base: hub.url)
        try await olga.signIn(organizer.email, organizer.password)
        for export in ["attendance", "log", "conflicts"] {
            let answer = try await olga.get("/events/\(hub.eventID)/exports/\(export).csv")
            #expect(answer.status == 200, "\(export)")
            let text = String(answer.body.unicodeScalars.drop { $0 == "\u{FEFF}" })
            for separator in [",", ";", "\t"] as [Unicode.Scalar] {
                let formulas = Self.cells(text, splitAt: separator).filter(Self.startsAFormula)
                #expect(formulas.isEmpty, "\(export).csv split at \(separator.escaped(asASCII: true)): \(formulas)")
            }
            if export == "attendance" {
                // Each text is still there, behind the guard, in one quoted cell.
                #expect(answer.body.contains(#""' =1+1""#) && answer.body.contains("\"x;'=1+1\"") && answer.body.contains("\"'\u{FF1D}1+1\""), "\(text)")
            }
        }
    }
}
