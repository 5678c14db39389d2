import Foundation

/// A one-page badge PDF written without any library: the fallback renderer of the PDF-folder
/// printer until the badge area's cairo/pango renderer is plugged in. Text is set in the
/// standard Helvetica fonts (WinAnsi: Latin scripts; other characters print as "?"); the full
/// name is kept in the document title in UTF-16, so nothing is lost for a later reprint.
enum MinimalBadgePDF {
    /// 90 × 60 mm, a common badge label size.
    static let width = 255, height = 170

    static func document(for badge: BadgeContent) -> Data {
        var lines: [(font: String, size: Int, y: Int, text: String)] = [
            ("F2", 20, 110, badge.name),
            ("F1", 12, 86, badge.company),
            ("F1", 11, 64, badge.accessType),
            ("F1", 9, 24, badge.code),
        ]
        lines = lines.filter { !$0.text.isEmpty }
        var content = ""
        for line in lines {
            let text = String(winAnsi(line.text).prefix(Int(Double(width - 24) / (Double(line.size) * 0.55))))
            content += "BT /\(line.font) \(line.size) Tf 12 \(line.y) Td (\(escape(text))) Tj ET\n"
        }
        let title = "FEFF" + badge.name.utf16.map { String(format: "%04X", $0) }.joined()
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
            "<< /Length \(content.unicodeScalars.count) >>\nstream\n\(content)endstream",
            "<< /Title <\(title)> /Producer (kiosk) >>",
        ]
        var data = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(data.count)
            data.append(contentsOf: "\(index + 1) 0 obj\n\(object)\nendobj\n".unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        }
        let xref = data.count
        var trailer = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { trailer += String(format: "%010d 00000 n \n", offset) }
        trailer += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R /Info \(objects.count) 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        data.append(contentsOf: Array(trailer.utf8))
        return data
    }

    /// Latin-1 characters stay (one byte each, written as the scalar), anything else becomes "?".
    static func winAnsi(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar.value {
            case 0x20...0x7E, 0xA0...0xFF: scalar
            default: "?"
            }
        }))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
    }
}
