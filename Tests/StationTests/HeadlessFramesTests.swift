import CQRencode
import Foundation
import KioskTestSupport
import Testing

/// Raw grayscale frames with real QR codes (libqrencode), decoded by the real pipeline (libzbar).
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking)
struct HeadlessFramesTests {
    static let width = 320, height = 240

    /// One frame: white, with `text` as a QR code (4 px per module, quiet zone) when given.
    static func frame(_ text: String?) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height)
        guard let text, let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return pixels }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width), scale = 4, origin = 40
        for y in 0..<modules {
            for x in 0..<modules where code.pointee.data[y * modules + x] & 1 == 1 {
                for dy in 0..<scale { for dx in 0..<scale { pixels[(origin + y * scale + dy) * width + origin + x * scale + dx] = 0 } }
            }
        }
        return pixels
    }

    @Test func aRawFrameStreamOnStdinYieldsTheExpectedEventLines() throws {
        let directory = TemporaryDirectory("kiosk-frames")
        defer { directory.remove() }
        // The pipeline decodes the newest frame (a live camera never waits), so the codes are
        // fed a moment apart, as a camera would show them, not in one burst.
        var files: [String] = []
        for (index, text) in ["DEMO-0001", nil, "https://tickets.example.org/t/DEMO-0002"].enumerated() {
            let file = directory.appending("frame-\(index).gray")
            try Data(Array(repeating: Self.frame(text), count: 3).flatMap { $0 }).write(to: file)
            files.append(file.path)
        }
        let kiosk = BuiltProducts.executable("kiosk").path
        let script = "{ cat \"$2\"; sleep 2; cat \"$3\"; sleep 2; cat \"$4\"; } | exec \"$0\" run --headless --frames - --frame-size 320x240 --data-dir \"$1\""
        let result = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, kiosk, directory.appending("data").path] + files)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.first?["event"] as? String == "ready")
        #expect((lines.first?["scanning"] as? String)?.contains("frames from stdin") == true)
        let decisions = lines.filter { $0["event"] as? String == "decision" }
        #expect(decisions.map { $0["decision"] as? String } == ["admitted", "admitted"])
        #expect(decisions.map { ($0["guest"] as? [String: Any])?["code"] as? String } == ["DEMO-0001", "DEMO-0002"])
        #expect(decisions.allSatisfy { $0["source"] as? String == "camera" })
    }
}
