import PrintTestSupport
import BadgePrint
import Foundation
import KioskTestSupport
import Testing

@Suite("badge rendering", .blocking)
struct BadgeRenderingTests {
    static let names: [(String, String)] = [
        ("José Müller-Ødegård", "Latin with diacritics"),
        ("Дмитрий Иванович Соколов", "Cyrillic"),
        ("Νίκος Παπαδόπουλος", "Greek"),
        ("أحمد الفارسي", "Arabic"),
        ("שרה כהן", "Hebrew"),
        ("王小明", "Chinese"),
        ("山田 太郎", "Japanese"),
        ("김민준", "Korean"),
        (String(repeating: "Maximiliane ", count: 9) + "Schmidt", "100-character name"),
    ]

    @Test("the PDF carries the guest's name as text and a QR code that decodes to the ticket code", arguments: names)
    func nameAndQR(_ sample: (String, String)) throws {
        let directory = TemporaryDirectory("render")
        defer { directory.remove() }
        let content = BadgeContent(name: sample.0, company: "ACME", accessTypeID: "vip", accessTypeName: "VIP", code: "T-\(sample.0.count)-XYZ")
        let pdf = directory.appending("badge.pdf")
        try BadgeRenderer().writePDF(content, template: BadgeTemplate(), to: pdf)
        let text = try PDFTools.text(pdf)
        if sample.1 == "Arabic" || sample.1 == "Hebrew" {
            // pdftotext may return right-to-left words in either order: compare the words.
            for word in sample.0.split(separator: " ") {
                let reversed = String(word.reversed())
                #expect(text.contains(String(word)) || text.contains(reversed), "\(sample.1): \(word) in \(text)")
            }
        } else {
            #expect(PDFTools.squeezed(text).contains(PDFTools.squeezed(sample.0)), "\(sample.1): \(text)")
        }
        #expect(try PDFTools.qrCodes(pdf, in: directory) == [content.code])
        let size = try #require(try PDFTools.pageSize(pdf))
        #expect(abs(size.width - 288) < 0.5 && abs(size.height - 216) < 0.5)
    }

    @Test("the page has the template's size: 62×100 mm Brother QL labels, DYMO 2.25×4 in")
    func pageSizes() throws {
        let directory = TemporaryDirectory("render")
        defer { directory.remove() }
        for (width, height) in [(62.0, 100.0), (57.15, 101.6)] {
            var template = BadgeTemplate()
            template.widthMM = width
            template.heightMM = height
            template.qrSizeMM = 20
            let pdf = directory.appending("badge-\(width).pdf")
            try BadgeRenderer().writePDF(BadgeContent(name: "Ana Sofía Pérez", accessTypeID: "general", accessTypeName: "General", code: "Q1"), template: template, to: pdf)
            let size = try #require(try PDFTools.pageSize(pdf))
            #expect(abs(size.width - width / 25.4 * 72) < 0.5 && abs(size.height - height / 25.4 * 72) < 0.5)
            #expect(try PDFTools.qrCodes(pdf, in: directory) == ["Q1"])
        }
    }

    @Test("a PNG preview is written at 300 dpi")
    func pngPreview() throws {
        let directory = TemporaryDirectory("render")
        defer { directory.remove() }
        let png = directory.appending("badge.png")
        try BadgeRenderer().writePNG(BadgeContent(name: "王小明", accessTypeID: "general", accessTypeName: "General", code: "P1"), template: BadgeTemplate(), to: png)
        let data = try Data(contentsOf: png)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // IHDR width and height, big-endian, at bytes 16…23.
        let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1200 && height == 900)
        let result = try run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["-q", "--raw", png.path])
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "P1")
    }

    @Test("control characters from the roster never reach the badge")
    func sanitized() {
        let content = BadgeContent(name: "Eve\u{1B}[31m\u{202E}Evil", accessTypeID: "x", accessTypeName: "X\u{7}", code: "C")
        #expect(content.name == "Eve[31mEvil")
        #expect(content.accessTypeName == "X")
    }
}
