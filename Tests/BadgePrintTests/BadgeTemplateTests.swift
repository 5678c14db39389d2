import PrintTestSupport
import BadgePrint
import Foundation
import KioskTestSupport
import Testing

@Suite("badge templates")
struct BadgeTemplateTests {
    @Test("a template file overrides only the keys it names; an access type's file starts from default.json")
    func partialTemplates() throws {
        let folder = TemporaryDirectory("templates")
        defer { folder.remove() }
        try #"{"width_mm": 62, "height_mm": 100, "media": "62x100mm"}"#.write(to: folder.appending("default.json"), atomically: true, encoding: .utf8)
        try ##"{"band_color": "#112233"}"##.write(to: folder.appending("vip.json"), atomically: true, encoding: .utf8)
        let templates = try BadgeTemplates.load(from: folder.url)
        #expect(templates.base.media == "62x100mm")
        #expect(templates.base.nameMaxPoints == BadgeTemplate().nameMaxPoints)
        let vip = templates.template(forAccessType: "vip")
        #expect(vip.widthMM == 62 && vip.bandColor == "#112233")
        #expect(templates.template(forAccessType: "general") == templates.base)
    }

    @Test("a mistyped template is refused with the file name and the bad key")
    func badTemplate() throws {
        let folder = TemporaryDirectory("templates")
        defer { folder.remove() }
        try #"{"band_color": "red"}"#.write(to: folder.appending("default.json"), atomically: true, encoding: .utf8)
        #expect(throws: BadgeError.self) { try BadgeTemplates.load(from: folder.url) }
        try #"{"width_mm": "wide"}"#.write(to: folder.appending("default.json"), atomically: true, encoding: .utf8)
        do {
            _ = try BadgeTemplates.load(from: folder.url)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("default.json"))
            #expect(error.description.contains("width_mm"))
        }
    }
}
