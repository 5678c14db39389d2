import Foundation
import Glibc
import KioskTestSupport
import Testing
@testable import QRScan

@Suite(.hangGuard) struct FrameSourceTests {
    let size = FrameSize(width: 64, height: 48)

    func rawFrames(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { i in [UInt8](repeating: UInt8(i % 256), count: size.byteCount) }
    }

    @Test func aRawStreamDeliversFramesInOrderUpToTheLastAndEndsAtEOF() async throws {
        let dir = TemporaryDirectory("qr-raw")
        defer { dir.remove() }
        let file = dir.appending("frames.raw")
        try Data(rawFrames(5)).write(to: file)
        var seen: [UInt8] = []
        for try await frame in RawFrameSource(path: file.path, size: size).frames() { seen.append(frame.pixels[0]) }
        // A fast consumer may still miss a frame to newest-wins; order and the last frame are kept.
        #expect(seen.last == 4)
        #expect(seen == seen.sorted())
    }

    @Test func aTruncatedRawStreamIsAnErrorThatNamesTheFrameSize() async throws {
        let dir = TemporaryDirectory("qr-raw")
        defer { dir.remove() }
        let file = dir.appending("frames.raw")
        try Data(rawFrames(2) + [1, 2, 3]).write(to: file)
        await #expect(throws: FrameSourceError.truncatedStream(receivedBytes: 3, frameBytes: size.byteCount)) {
            for try await _ in RawFrameSource(path: file.path, size: size).frames() {}
        }
        #expect(FrameSourceError.truncatedStream(receivedBytes: 3, frameBytes: 10).description.contains("--frame-size"))
    }

    @Test func aSlowConsumerGetsTheNewestFrameAndStaleFramesAreDroppedNotQueued() async throws {
        let dir = TemporaryDirectory("qr-raw")
        defer { dir.remove() }
        let file = dir.appending("frames.raw")
        let produced = 400
        try Data(rawFrames(produced)).write(to: file)
        let statistics = FrameStatistics()
        var received: [UInt8] = []
        for try await frame in RawFrameSource(path: file.path, size: size, statistics: statistics).frames() {
            received.append(frame.pixels[0])
            try await Task.sleep(for: .milliseconds(20))  // a decoder slower than the source
        }
        #expect(statistics.produced == produced)
        #expect(statistics.dropped > 0)
        // Everything produced was either delivered or dropped: at most one frame ever waited.
        #expect(received.count + statistics.dropped == produced)
        #expect(received.last == UInt8((produced - 1) % 256), "the newest frame is the one decoded")
    }

    @Test func aFIFOWhoseWriterGoesAwayMidFrameIsATruncatedStream() async throws {
        let dir = TemporaryDirectory("qr-fifo")
        defer { dir.remove() }
        let fifo = dir.appending("frames.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = rawFrames(1) + [9, 9, 9, 9]
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)  // the sender dies mid-frame
        }
        writer.start()
        var frames = 0
        await #expect(throws: FrameSourceError.truncatedStream(receivedBytes: 4, frameBytes: size.byteCount)) {
            for try await _ in RawFrameSource(path: fifo, size: size).frames() { frames += 1 }
        }
        #expect(frames == 1)
    }

    @Test func stillFilesLoadAsPGMAndJPEG() throws {
        let dir = TemporaryDirectory("qr-still")
        defer { dir.remove() }
        let frame = QRFixtures.frame("PGM-1", .init(modulePixels: 4, width: 200, height: 160))
        let pgm = dir.appending("f.pgm")
        try Data(PGM.encode(frame)).write(to: pgm)
        #expect(try StillImage.load(path: pgm.path) == frame)
        let jpeg = BuiltProducts.packageRoot.appendingPathComponent("Tests/QRScanTests/Fixtures/clean_0000.jpg")
        let decoded = try StillImage.load(path: jpeg.path)
        #expect(decoded.sizeLabel == "640x480")
        #expect(throws: FrameSourceError.self) { try StillImage.decode(Array("hello".utf8)) }
    }
}

@Suite(.hangGuard) struct CameraFaultTests {
    @Test func aMissingDeviceNodeIsNoDeviceWithAPlugInMessage() async {
        let path = "/dev/video-kiosk-test-missing"
        await #expect(throws: FrameSourceError.noDevice(path: path)) {
            for try await _ in V4L2Camera(path: path).frames() {}
        }
        #expect(FrameSourceError.noDevice(path: path).description.contains("plug the camera in"))
    }

    @Test func permissionDeniedTellsTheOperatorToAddKioskToGroupVideo() {
        let fault = FrameSourceError.camera(path: "/dev/video0", errno: EACCES)
        #expect(fault == .permissionDenied(path: "/dev/video0"))
        #expect(fault.description.contains("Camera access required: add user kiosk to group video"))
        #expect(fault.isRetryable)
    }

    @Test("errno values map to the faults the operator sees", arguments: [
        (ENOENT, false, FrameSourceError.noDevice(path: "/dev/video0")),
        (ENOENT, true, .unplugged(path: "/dev/video0")),
        (ENODEV, true, .unplugged(path: "/dev/video0")),
        (EBUSY, false, .busy(path: "/dev/video0")),
        (EPERM, false, .permissionDenied(path: "/dev/video0")),
    ])
    func errnoMapping(code: Int32, streaming: Bool, expected: FrameSourceError) {
        #expect(FrameSourceError.camera(path: "/dev/video0", errno: code, whileStreaming: streaming) == expected)
    }

    @Test func aNodeThatIsNotACameraIsRefusedWithoutRetry() async throws {
        let dir = TemporaryDirectory("qr-cam")
        defer { dir.remove() }
        let file = dir.appending("video0")
        try Data([0]).write(to: file)
        await #expect(throws: FrameSourceError.notACamera(path: file.path, detail: "not a character device")) {
            for try await _ in V4L2Camera(path: file.path).frames() {}
        }
        // A real character device that is no camera (a private copy of /dev/null's node).
        let node = dir.appending("video1").path
        if mknod(node, S_IFCHR | 0o600, dev_t(0x103)) == 0 {
            do {
                for try await _ in V4L2Camera(path: node).frames() {}
                Issue.record("a null device delivered frames")
            } catch let error as FrameSourceError {
                guard case .notACamera = error else { Issue.record("unexpected \(error)"); return }
                #expect(!error.isRetryable)
            }
        }
    }

    @Test func theReconnectBackoffDoublesUpToItsMaximum() {
        let policy = ReconnectPolicy.standard
        #expect((1...6).map { policy.delay(afterFailures: $0) }
            == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }
}
