import Foundation

/// How a badge looks: its size, the media name sent to CUPS, fonts and colours.
///
/// Templates are JSON files an organizer edits: `default.json` in the templates folder, and
/// optionally `<access-type-id>.json` for an access type that needs its own look. Every key is
/// optional; a missing key keeps the built-in default, so a file can be as small as
/// `{"band_color": "#b00020"}`.
/// ```json
/// {"width_mm": 101.6, "height_mm": 76.2, "media": "w288h216", "band_colors": {"vip": "#b00020"}}
/// ```
public struct BadgeTemplate: Sendable, Hashable, Codable {
    /// Badge width and height in millimetres (the PDF page size, landscape when wider).
    public var widthMM: Double = 101.6
    public var heightMM: Double = 76.2
    /// The media name sent to CUPS; it must describe the same size as the page, or CUPS rotates
    /// and shrinks the badge (`w288h216` is 4×3 in for Zebra and DYMO drivers, `62x100mm` for a
    /// Brother QL, PWG names such as `oe_badge_4x3in` for driverless printers).
    public var media: String = "w288h216"
    public var marginMM: Double = 3
    /// Font family; fontconfig falls back per script (Noto covers Latin, Cyrillic, Greek, Arabic,
    /// Hebrew and CJK).
    public var font: String = "Noto Sans"
    /// The name starts at `nameMaxPoints` and shrinks to fit in two lines; below `nameMinPoints`
    /// it wraps to more lines rather than shrink further.
    public var nameMaxPoints: Double = 36
    public var nameMinPoints: Double = 14
    public var companyPoints: Double = 13
    public var extraPoints: Double = 10
    /// The access-type band at the top: its height, colour (`#rrggbb`), text colour, and colours
    /// per access-type id that override `bandColor`.
    public var bandHeightMM: Double = 9
    public var bandColor: String = "#1f4e79"
    public var bandTextColor: String = "#ffffff"
    public var bandColors: [String: String] = ["vip": "#b00020", "speaker": "#6a1b9a", "staff": "#2e7d32", "press": "#ef6c00"]
    /// An optional extra line (e.g. the event name or "Day 2").
    public var extraLine: String?
    /// The QR code carrying the ticket code (for exhibitors' lead retrieval); 0 hides it.
    public var qrSizeMM: Double = 24

    public init() {}

    enum CodingKeys: String, CodingKey {
        case widthMM = "width_mm", heightMM = "height_mm", media, marginMM = "margin_mm", font
        case nameMaxPoints = "name_max_pt", nameMinPoints = "name_min_pt", companyPoints = "company_pt", extraPoints = "extra_pt"
        case bandHeightMM = "band_height_mm", bandColor = "band_color", bandTextColor = "band_text_color", bandColors = "band_colors"
        case extraLine = "extra_line", qrSizeMM = "qr_size_mm"
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, defaults: BadgeTemplate())
    }

    /// Decodes the keys present, taking the others from `defaults`.
    init(from decoder: any Decoder, defaults: BadgeTemplate) throws {
        self = defaults
        let c = try decoder.container(keyedBy: CodingKeys.self)
        widthMM = try c.decodeIfPresent(Double.self, forKey: .widthMM) ?? widthMM
        heightMM = try c.decodeIfPresent(Double.self, forKey: .heightMM) ?? heightMM
        media = try c.decodeIfPresent(String.self, forKey: .media) ?? media
        marginMM = try c.decodeIfPresent(Double.self, forKey: .marginMM) ?? marginMM
        font = try c.decodeIfPresent(String.self, forKey: .font) ?? font
        nameMaxPoints = try c.decodeIfPresent(Double.self, forKey: .nameMaxPoints) ?? nameMaxPoints
        nameMinPoints = try c.decodeIfPresent(Double.self, forKey: .nameMinPoints) ?? nameMinPoints
        companyPoints = try c.decodeIfPresent(Double.self, forKey: .companyPoints) ?? companyPoints
        extraPoints = try c.decodeIfPresent(Double.self, forKey: .extraPoints) ?? extraPoints
        bandHeightMM = try c.decodeIfPresent(Double.self, forKey: .bandHeightMM) ?? bandHeightMM
        bandColor = try c.decodeIfPresent(String.self, forKey: .bandColor) ?? bandColor
        bandTextColor = try c.decodeIfPresent(String.self, forKey: .bandTextColor) ?? bandTextColor
        bandColors = try c.decodeIfPresent([String: String].self, forKey: .bandColors) ?? bandColors
        extraLine = try c.decodeIfPresent(String.self, forKey: .extraLine) ?? extraLine
        qrSizeMM = try c.decodeIfPresent(Double.self, forKey: .qrSizeMM) ?? qrSizeMM
    }

    /// Page size in PostScript points (1/72 in), as the PDF and cairo measure it.
    public var widthPoints: Double { widthMM / 25.4 * 72 }
    public var heightPoints: Double { heightMM / 25.4 * 72 }

    /// Checks the values an organizer may have mistyped.
    public func validate() throws(BadgeError) {
        guard widthMM >= 20, heightMM >= 20, widthMM <= 300, heightMM <= 300 else {
            throw .badTemplate("width_mm and height_mm must be between 20 and 300")
        }
        guard nameMinPoints >= 4, nameMaxPoints >= nameMinPoints else {
            throw .badTemplate("name_min_pt must be at least 4 and at most name_max_pt")
        }
        guard marginMM >= 0, qrSizeMM >= 0, bandHeightMM >= 0, qrSizeMM + 2 * marginMM < min(widthMM, heightMM) else {
            throw .badTemplate("qr_size_mm and margins must fit inside the badge")
        }
        for color in [bandColor, bandTextColor] + bandColors.values where RGB(hex: color) == nil {
            throw .badTemplate("colour \(color) is not #rrggbb")
        }
        guard !media.isEmpty else { throw .badTemplate("media must name the label size for CUPS, e.g. w288h216") }
    }
}

/// Templates by access type, loaded from a folder of JSON files.
public struct BadgeTemplates: Sendable {
    public var base: BadgeTemplate
    public var byAccessType: [String: BadgeTemplate]

    public init(base: BadgeTemplate = BadgeTemplate(), byAccessType: [String: BadgeTemplate] = [:]) {
        self.base = base
        self.byAccessType = byAccessType
    }

    /// The template for an access type: its own file if there is one, else the default.
    public func template(forAccessType id: String) -> BadgeTemplate { byAccessType[id] ?? base }

    /// Loads `default.json` and `<access-type-id>.json` from `folder`; a missing folder or file
    /// means the built-in default. An access type's file starts from `default.json`.
    public static func load(from folder: URL) throws(BadgeError) -> BadgeTemplates {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return BadgeTemplates() }
        var templates = BadgeTemplates()
        if names.contains("default.json") {
            templates.base = try decode(folder.appendingPathComponent("default.json"), defaults: BadgeTemplate())
        }
        for name in names.sorted() where name.hasSuffix(".json") && name != "default.json" {
            let id = String(name.dropLast(5))
            templates.byAccessType[id] = try decode(folder.appendingPathComponent(name), defaults: templates.base)
        }
        return templates
    }

    /// Reads one template file, keys missing from it taken from `defaults`.
    public static func decode(_ file: URL, defaults: BadgeTemplate = BadgeTemplate()) throws(BadgeError) -> BadgeTemplate {
        let data: Data
        do { data = try Data(contentsOf: file) } catch { throw .badTemplate("cannot read \(file.path)") }
        let template: BadgeTemplate
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[BadgeTemplate.defaultsKey] = defaults
            template = try decoder.decode(TemplateFile.self, from: data).template
        } catch {
            throw .badTemplate("\(file.lastPathComponent) is not a valid badge template (\(error.shortDescription))")
        }
        do { try template.validate() } catch { throw .badTemplate("\(file.lastPathComponent): \(error.detail)") }
        return template
    }
}

extension BadgeTemplate {
    static let defaultsKey = CodingUserInfoKey(rawValue: "badgeTemplateDefaults")!
}

/// Decodes a template on top of the defaults passed in the decoder's user info.
private struct TemplateFile: Decodable {
    var template: BadgeTemplate
    init(from decoder: any Decoder) throws {
        let defaults = decoder.userInfo[BadgeTemplate.defaultsKey] as? BadgeTemplate ?? BadgeTemplate()
        template = try BadgeTemplate(from: decoder, defaults: defaults)
    }
}

extension Error {
    var shortDescription: String {
        switch self as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default: return String(describing: self)
        }
    }
}

/// A colour parsed from `#rrggbb`.
struct RGB: Sendable, Hashable {
    var red: Double, green: Double, blue: Double
    init?(hex: String) {
        var text = Substring(hex)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        red = Double((value >> 16) & 0xFF) / 255
        green = Double((value >> 8) & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }
}
