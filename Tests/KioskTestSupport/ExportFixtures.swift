import Foundation

/// Roster exports as the ticketing systems write them, for tests of what each column means.
///
/// Every export holds the same tickets (codes in capitals):
/// - an order `FAM01` of four (`SEC-ANA`, `SEC-BRUNO`, `SEC-CARLA`, `SEC-DARIO`);
/// - `SEC-VIP` with the staff note "Hand out the VIP lanyard";
/// - `SEC-LATER`, valid from 2099-01-01 09:00 in the event's zone;
/// - `SEC-EXPIRED`, valid until 2020-01-01 (the whole day);
/// - `SEC-BLOCKED`, blocked, refunded or cancelled as the source says it;
/// - `SEC-PRIOR`, checked in by the ticketing system at 2026-11-24 08:12 (pretix only).
public enum ExportFixtures {
    /// How pretix writes its check-in list: comma, semicolon ("Excel" in most of Europe), or
    /// Excel's own CSV (UTF-8 with BOM, CRLF line ends, semicolons).
    public enum PretixVariant: String, CaseIterable, Sendable {
        case comma, semicolon, excel
    }

    public static func pretix(_ variant: PretixVariant) -> Data {
        let header = ["Order code", "Attendee name", "Product", "Price", "Checked in", "Checked out", "Automatically checked in",
                      "Secret", "E-mail", "Company", "Voucher code", "Order date", "Requires special attention", "Comment",
                      "Blocked", "Valid from", "Valid until", "Check-in text"]
        func row(_ order: String, _ name: String, _ product: String, _ secret: String, checkedIn: String = "", email: String = "",
                 attention: String = "No", blocked: String = "No", from: String = "", until: String = "", text: String = "") -> [String] {
            [order, name, product, "10.00", checkedIn, "", "No", secret, email, "", "", "2026-11-01", attention, "", blocked, from, until, text]
        }
        let rows = [
            header,
            row("FAM01", "Ana Lima", "Day pass", "sec-ana", email: "ana@example.org"),
            row("FAM01", "Bruno Lima", "Day pass", "sec-bruno"),
            row("FAM01", "Carla Lima", "Day pass", "sec-carla"),
            row("FAM01", "Dario Lima", "Day pass", "sec-dario"),
            row("X2", "Vera Vip", "VIP", "sec-vip", attention: "Yes", text: "Hand out the VIP lanyard"),
            row("X3", "Tom Later", "Day pass", "sec-later", from: "2099-01-01 09:00"),
            row("X4", "Eve Expired", "Day pass", "sec-expired", until: "2020-01-01"),
            row("X5", "Bob Blocked", "Day pass", "sec-blocked", blocked: "Yes"),
            row("X6", "Paula Prior", "Day pass", "sec-prior", checkedIn: "2026-11-24 08:12"),
        ]
        let delimiter = variant == .comma ? "," : ";"
        let lineEnd = variant == .excel ? "\r\n" : "\n"
        let text = rows.map { $0.map(quoted).joined(separator: delimiter) }.joined(separator: lineEnd) + lineEnd
        return (variant == .excel ? Data([0xEF, 0xBB, 0xBF]) : Data()) + Data(text.utf8)
    }

    /// Eventbrite's attendee report: `Order #`, `Barcode #`, `Attendee Status`.
    public static func eventbrite() -> Data {
        let lines = [
            "Order #,Order Date,First Name,Last Name,Email,Ticket Type,Attendee Status,Barcode #",
            "FAM01,2026-11-01,Ana,Lima,ana@example.org,Day pass,Attending,sec-ana",
            "FAM01,2026-11-01,Bruno,Lima,,Day pass,Attending,sec-bruno",
            "FAM01,2026-11-01,Carla,Lima,,Day pass,Attending,sec-carla",
            "FAM01,2026-11-01,Dario,Lima,,Day pass,Attending,sec-dario",
            "X5,2026-11-02,Bob,Blocked,,Day pass,Refunded,sec-blocked",
            "X7,2026-11-02,Cora,Cancelled,,Day pass,Cancelled,sec-cancelled",
        ]
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// A sheet made by hand, with the generic optional columns.
    public static func generic() -> Data {
        let lines = [
            "code,name,email,ticket type,order,blocked,valid_from,valid_until,attention",
            "sec-ana,Ana Lima,ana@example.org,Day pass,FAM01,,,,",
            "sec-bruno,Bruno Lima,,Day pass,FAM01,no,,,",
            "sec-carla,Carla Lima,,Day pass,fam01,,,,",
            "sec-dario,Dario Lima,,Day pass,FAM01,,,,",
            "sec-vip,Vera Vip,,VIP,X2,,,,Hand out the VIP lanyard",
            "sec-later,Tom Later,,Day pass,X3,,2099-01-01T09:00:00+01:00,,",
            "sec-expired,Eve Expired,,Day pass,X4,,,2020-01-01,",
            "sec-blocked,Bob Blocked,,Day pass,X5,x,,,",
        ]
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// 2099-01-01 09:00 in Europe/Berlin (winter time, UTC+1), as JSON answers write it.
    public static let laterValidFrom = "2099-01-01T08:00:00.000Z"
    /// The last millisecond of 2020-01-01 in Europe/Berlin.
    public static let expiredValidUntil = "2020-01-01T22:59:59.999Z"

    private static func quoted(_ field: String) -> String {
        field.contains(where: { [",", ";", "\"", "\n"].contains($0) }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}

extension ExportFixtures {
    /// A station data directory in `directory` holding the pretix export (semicolon variant)
    /// imported with `kiosk import` in the event's zone, Europe/Berlin; returns its path.
    public static func importedPretixStation(in directory: TemporaryDirectory) throws -> String {
        let data = directory.appending("data").path
        let csv = directory.appending("pretix.csv")
        try pretix(.semicolon).write(to: csv)
        let imported = try run(BuiltProducts.executable("kiosk"), ["import", csv.path, "--time-zone", "Europe/Berlin", "--data-dir", data])
        guard imported.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: imported.stderr]) }
        return data
    }

    /// Checks `code` in at `data` as if ten minutes ago (with Debian's faketime): beyond the
    /// tolerance window, so presenting it again is refused as already checked in.
    public static func checkedInTenMinutesAgo(_ code: String, data: String) throws {
        let result = try run(URL(fileURLWithPath: "/usr/bin/faketime"),
                             ["-f", "-10m", BuiltProducts.executable("kiosk").path, "checkin", code, "--station", "Door 1", "--data-dir", data])
        guard result.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
    }
}
