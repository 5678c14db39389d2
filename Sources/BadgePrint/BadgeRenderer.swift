import CPangoCairo
import Foundation

/// Renders badges to PDF (for CUPS) or PNG (for a preview) with cairo and pango.
///
/// Pango shapes every script (bidirectional text, CJK, combining marks) and fontconfig picks a
/// font per script, so a roster's names print as written. Each call builds its own cairo and
/// pango objects: the renderer has no shared state and may be used from any thread.
/// ```swift
/// let pdf = try BadgeRenderer().pdf(content, template: templates.template(forAccessType: "vip"))
/// ```
public struct BadgeRenderer: Sendable {
    /// PNG previews are drawn at this resolution.
    public var pngDotsPerInch: Double = 300

    public init() {}

    /// The badge as a one-page PDF document whose page size is the template's.
    public func pdf(_ content: BadgeContent, template: BadgeTemplate) throws(BadgeError) -> Data {
        let qr = try qrMatrix(content, template)
        let sink = PDFSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        guard let surface = cairo_pdf_surface_create_for_stream({ closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, unmanaged.toOpaque(), template.widthPoints, template.heightPoints) else {
            throw .renderFailed("cairo could not create a PDF surface")
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "Badge")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "checkin-kiosk")
        try draw(on: surface, scale: 1, content, template, qr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .renderFailed(String(cString: cairo_status_to_string(status))) }
        return sink.data
    }

    /// Writes the badge as a PDF file.
    public func writePDF(_ content: BadgeContent, template: BadgeTemplate, to url: URL) throws(BadgeError) {
        let data = try pdf(content, template: template)
        do { try data.write(to: url, options: .atomic) } catch { throw .renderFailed("cannot write \(url.path)") }
    }

    /// Writes the badge as a PNG picture at ``pngDotsPerInch``.
    public func writePNG(_ content: BadgeContent, template: BadgeTemplate, to url: URL) throws(BadgeError) {
        let qr = try qrMatrix(content, template)
        let scale = pngDotsPerInch / 72
        let width = Int32((template.widthPoints * scale).rounded()), height = Int32((template.heightPoints * scale).rounded())
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height) else {
            throw .renderFailed("cairo could not create an image")
        }
        defer { cairo_surface_destroy(surface) }
        try draw(on: surface, scale: scale, content, template, qr)
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, url.path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .renderFailed("cannot write \(url.path) (\(String(cString: cairo_status_to_string(status))))")
        }
    }

    private func qrMatrix(_ content: BadgeContent, _ template: BadgeTemplate) throws(BadgeError) -> QRMatrix? {
        try template.validate()
        return template.qrSizeMM > 0 && !content.code.isEmpty ? try QRMatrix(encoding: content.code) : nil
    }

    /// Lays the badge out in points: band at the top, the name in the middle, company and
    /// extra line at the bottom left, the QR code at the bottom right.
    private func draw(on surface: OpaquePointer, scale: Double, _ content: BadgeContent, _ template: BadgeTemplate, _ qr: QRMatrix?) throws(BadgeError) {
        guard let cr = cairo_create(surface) else { throw .renderFailed("cairo could not create a context") }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        let width = template.widthPoints, height = template.heightPoints
        let margin = template.marginMM / 25.4 * 72
        let band = template.bandHeightMM / 25.4 * 72
        let qrSide = qr == nil ? 0 : template.qrSizeMM / 25.4 * 72

        setColor(cr, "#ffffff")
        cairo_paint(cr)

        if band > 0 {
            setColor(cr, template.bandColors[content.accessTypeID] ?? template.bandColor)
            cairo_rectangle(cr, 0, 0, width, band)
            cairo_fill(cr)
            let text = TextBlock(cr: cr, font: template.font, bold: true, points: band * 0.55, width: width - 2 * margin, text: content.accessTypeName.uppercased())
            setColor(cr, template.bandTextColor)
            text.draw(x: margin, y: (band - text.height) / 2)
        }

        // Bottom row: company and extra line beside the QR code.
        let bottomTextWidth = width - 2 * margin - (qrSide > 0 ? qrSide + margin : 0)
        var bottom = height - margin
        setColor(cr, "#333333")
        if let extra = template.extraLine, !extra.isEmpty {
            let text = TextBlock(cr: cr, font: template.font, bold: false, points: template.extraPoints, width: bottomTextWidth, text: extra, alignLeft: true)
            bottom -= text.height
            text.draw(x: margin, y: bottom)
        }
        if !content.company.isEmpty {
            let text = TextBlock(cr: cr, font: template.font, bold: false, points: template.companyPoints, width: bottomTextWidth, text: content.company, alignLeft: true, maxLines: 2)
            bottom -= text.height
            text.draw(x: margin, y: bottom)
        }

        // The name fills the space between the band and the bottom row.
        let nameTop = band + margin
        let nameBottom = min(bottom, height - margin - qrSide) - margin / 2
        let nameBox = (width: width - 2 * margin, height: max(nameBottom - nameTop, template.nameMinPoints * 1.4))
        let name = fitName(cr, content.name, template, box: nameBox)
        setColor(cr, "#000000")
        name.draw(x: margin, y: nameTop + max(0, (nameBox.height - name.height) / 2))

        if let qr, qrSide > 0 {
            drawQR(cr, qr, x: width - margin - qrSide, y: height - margin - qrSide, side: qrSide)
        }
    }

    /// The largest size at which the name fits in two lines; below the minimum size it wraps
    /// onto more lines (a 100-character name still prints whole) and only then shrinks further.
    private func fitName(_ cr: OpaquePointer, _ name: String, _ template: BadgeTemplate, box: (width: Double, height: Double)) -> TextBlock {
        func block(_ points: Double) -> TextBlock {
            TextBlock(cr: cr, font: template.font, bold: true, points: points, width: box.width, text: name)
        }
        var low = template.nameMinPoints, high = template.nameMaxPoints
        let largest = block(high)
        if largest.lines <= 2 && largest.height <= box.height { return largest }
        let smallest = block(low)
        if smallest.lines <= 2 && smallest.height <= box.height {
            // Binary search to a quarter point: about five layouts.
            var best = smallest
            while high - low > 0.25 {
                let mid = (low + high) / 2
                let candidate = block(mid)
                if candidate.lines <= 2 && candidate.height <= box.height { best = candidate; low = mid } else { high = mid }
            }
            return best
        }
        if smallest.height <= box.height { return smallest }
        var points = template.nameMinPoints
        var candidate = smallest
        while points > 5 && candidate.height > box.height {
            points -= 1
            candidate = block(points)
        }
        return candidate
    }

    private func drawQR(_ cr: OpaquePointer, _ qr: QRMatrix, x: Double, y: Double, side: Double) {
        // Four modules of quiet zone on each side, as scanners expect.
        let module = side / Double(qr.size + 8)
        let origin = (x: x + 4 * module, y: y + 4 * module)
        setColor(cr, "#ffffff")
        cairo_rectangle(cr, x, y, side, side)
        cairo_fill(cr)
        setColor(cr, "#000000")
        for row in 0..<qr.size {
            for column in 0..<qr.size where qr.isDark(column, row) {
                cairo_rectangle(cr, origin.x + Double(column) * module, origin.y + Double(row) * module, module, module)
            }
        }
        // One fill for all modules: adjacent squares join without hairline gaps.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        cairo_fill(cr)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
    }

    private func setColor(_ cr: OpaquePointer, _ hex: String) {
        let color = RGB(hex: hex) ?? RGB(hex: "#000000")!
        cairo_set_source_rgb(cr, color.red, color.green, color.blue)
    }
}

/// Collects the PDF bytes cairo streams out.
private final class PDFSink {
    var data = Data()
}

/// A pango layout of one block of text at a given size and width.
private struct TextBlock {
    let layout: OpaquePointer
    let cr: OpaquePointer
    let owner: LayoutOwner

    init(cr: OpaquePointer, font: String, bold: Bool, points: Double, width: Double, text: String, alignLeft: Bool = false, maxLines: Int? = nil) {
        self.cr = cr
        layout = pango_cairo_create_layout(cr)
        owner = LayoutOwner(layout)
        let description = pango_font_description_new()
        pango_font_description_set_family(description, font)
        pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        // Absolute size: device units are points here, whatever resolution pango assumes.
        pango_font_description_set_absolute_size(description, points * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_alignment(layout, alignLeft ? PANGO_ALIGN_LEFT : PANGO_ALIGN_CENTER)
        // Right-to-left names start at the right when left-aligned.
        pango_layout_set_auto_dir(layout, 1)
        if let maxLines {
            pango_layout_set_height(layout, Int32(-maxLines))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        pango_layout_set_text(layout, text, -1)
    }

    var lines: Int { Int(pango_layout_get_line_count(layout)) }

    var height: Double {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return Double(logical.height) / Double(PANGO_SCALE)
    }

    func draw(x: Double, y: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}

/// Releases a pango layout when the last copy of its ``TextBlock`` goes away.
private final class LayoutOwner {
    let layout: OpaquePointer
    init(_ layout: OpaquePointer) { self.layout = layout }
    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
}
