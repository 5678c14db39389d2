import Foundation
import Glibc
import KioskTestSupport
import Testing
@testable import QRScan

/// The `kiosk decode` and `kiosk scan` commands, run as the real executable.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking) struct QRCommandTests {
    let kiosk = BuiltProducts.executable("kiosk")
    let fixtures = BuiltProducts.packageRoot.appendingPathComponent("Tests/QRScanTests/Fixtures")

    @Test func aRawFramePipeIntoKioskScanReportsTheCodeOnce() throws {
        let dir = TemporaryDirectory("qr-cmd")
        defer { dir.remove() }
        let frame = QRFixtures.frame("TICKET-42", .init(modulePixels: 4, width: 320, height: 240))
        let blank = GrayFrame(width: 320, height: 240, fill: 180)
        let stream = [blank, frame, frame, frame, blank, frame, frame].flatMap(\.pixels)
        let file = dir.appending("frames.raw")
        try Data(stream).write(to: file)
        // Through a real pipe on stdin, as `ffmpeg … | kiosk scan --frames -` would feed it.
        let result = try run(URL(fileURLWithPath: "/bin/sh"),
                             ["-c", "cat \"$0\" | \"$1\" scan --frames - --frame-size 320x240", file.path, kiosk.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(event["event"] as? String == "scan")
        #expect(event["payload"] as? String == "TICKET-42")
    }

    @Test func aTruncatedFramePipeFailsWithExit65AndSaysWhy() throws {
        let dir = TemporaryDirectory("qr-cmd")
        defer { dir.remove() }
        let file = dir.appending("frames.raw")
        try Data([UInt8](repeating: 0, count: 320 * 240 + 100)).write(to: file)
        let result = try run(kiosk, ["scan", "--frames", file.path, "--frame-size", "320x240"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("--frame-size"))
        #expect(result.stdout.contains("\"event\":\"source_fault\""))
    }

    @Test func aMissingCameraWithoutReconnectEndsWithItsFault() throws {
        let result = try run(kiosk, ["scan", "--camera", "/dev/video-kiosk-missing", "--no-reconnect"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("No camera at /dev/video-kiosk-missing"))
    }

    @Test func kioskDecodePrintsPayloadsAndTimings() throws {
        let result = try run(kiosk, ["decode", "--json", fixtures.appendingPathComponent("clean_0000.jpg").path])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try #require(try result.json()["frames"] as? [[String: Any]])
        let codes = try #require(frames.first?["codes"] as? [[String: Any]])
        #expect(codes.first?["payload"] as? String == "FZANNGZVZWUTEHEX77XZRR5IMSTW2RZT")
        #expect(frames.first?["ms"] is Double)
    }

    @Test func kioskDecodeScoresACorpusAgainstItsTruthAndZbarimg() throws {
        let result = try run(kiosk, ["decode", "--json", "--truth", fixtures.appendingPathComponent("truth.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        let overall = try #require(json["overall"] as? [String: Any])
        let positives = try #require(overall["positives"] as? Int)
        #expect(positives > 0)
        #expect(overall["detected"] as? Int == positives)
        #expect(overall["misreads"] as? Int == 0)
        #expect(overall["false_positives"] as? Int == 0)
        #expect((json["ms"] as? [String: Any])?["640x480"] != nil)
        #expect((json["categories"] as? [String: Any])?.keys.contains("inverted") == true)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") {
            let baseline = try #require(json["zbarimg"] as? [String: Any])
            #expect((baseline["overall"] as? [String: Any])?["positives"] as? Int == positives)
        }
    }

    @Test func unreadableFramesAreABadInputError() throws {
        let dir = TemporaryDirectory("qr-cmd")
        defer { dir.remove() }
        let file = dir.appending("not-a-frame.pgm")
        try Data("hello".utf8).write(to: file)
        let result = try run(kiosk, ["decode", file.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("neither PGM nor JPEG"))
    }
}

/// Permission denied on a real device node: the kiosk user outside group `video`.
@Suite(.hangGuard, .tags(.endToEnd), .endToEnd, .blocking) struct CameraPermissionTests {
    @Test func aNodeThisUserMayNotOpenSaysAddKioskToGroupVideo() throws {
        let dir = TemporaryDirectory("qr-perm")
        defer { dir.remove() }
        let kiosk = BuiltProducts.executable("kiosk")
        let node = dir.appending("video0").path
        let result: ProcessResult
        if getuid() == 0 {
            // Root opens anything: make a real character device (a copy of /dev/null's node)
            // that only root may open, and run kiosk as nobody.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                  mknod(node, S_IFCHR | 0o600, dev_t(0x103)) == 0 else { return }
            chmod(dir.path, 0o755)
            result = try run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                             ["--reuid=65534", "--regid=65534", "--clear-groups", kiosk.path,
                              "scan", "--camera", node, "--no-reconnect"])
        } else {
            try Data([0]).write(to: URL(fileURLWithPath: node))
            chmod(node, 0)
            result = try run(kiosk, ["scan", "--camera", node, "--no-reconnect"])
        }
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("Camera access required: add user kiosk to group video"))
    }
}
