import Foundation
import KioskTestSupport
import Synchronization
import Testing
@testable import QRScan

/// A camera stand-in for the machine without one: each `frames()` call is one plug-in; the
/// script says whether that attempt fails or delivers frames.
final class ScriptedCamera: FrameSource {
    enum Attempt: Sendable { case fail(FrameSourceError), deliver([GrayFrame], thenFail: FrameSourceError?) }
    let attempts: Mutex<[Attempt]>
    init(_ attempts: [Attempt]) { self.attempts = Mutex(attempts) }

    func frames() -> FrameStream {
        let attempt = attempts.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        return FramePump.start(name: "scripted-camera") { emit, _ in
            switch attempt {
            case .none: return
            case .fail(let error)?: throw error
            case .deliver(let frames, let error)?:
                for frame in frames {
                    guard emit(frame) else { return }
                    Thread.sleep(forTimeInterval: 0.005)
                }
                if let error { throw error }
            }
        }
    }
}


@Suite(.hangGuard) struct ScanPipelineTests {
    let ticket = "TICKET-0001"
    /// A debounce window no test run reaches, for tests of what is reported rather than when.
    static let unhurried: Duration = .seconds(600)

    func collect(_ pipeline: ScanPipeline) async -> [ScanEvent] {
        var events: [ScanEvent] = []
        for await event in pipeline.events() { events.append(event) }
        return events
    }

    @Test func aCodeHeldInFrontOfTheCameraIsReportedOnce() async {
        let frame = QRFixtures.frame(ticket, .init(modulePixels: 4, width: 320, height: 240))
        let camera = ScriptedCamera([.deliver(Array(repeating: frame, count: 8), thenFail: nil)])
        // A window far beyond the run: on CI's loaded machine two decodes of these frames were once
        // more than the 3 s default apart. The window's length is ScanDebouncer's own test.
        let events = await collect(ScanPipeline(source: camera, debounceWindow: Self.unhurried))
        #expect(events.count == 1)
        guard case .scanned(let payload, .qr, _) = events.first else { Issue.record("no scan: \(events)"); return }
        #expect(payload == ticket)
    }

    @Test func twoDifferentCodesAreTwoEvents() async {
        let a = QRFixtures.frame("A-1", .init(modulePixels: 4, width: 320, height: 240))
        let b = QRFixtures.frame("B-2", .init(modulePixels: 4, width: 320, height: 240))
        // Newest-wins may drop frames in between, but never the first (the consumer waits for it)
        // nor the last one, so both codes are seen whatever the machine's speed.
        let events = await collect(ScanPipeline(source: ScriptedCamera([.deliver([a, a, a, b, b, b], thenFail: nil)]), debounceWindow: Self.unhurried))
        let payloads = events.compactMap { if case .scanned(let p, _, _) = $0 { p } else { nil } }
        #expect(payloads == ["A-1", "B-2"])
    }

    @Test func anUnpluggedCameraIsReportedAndScanningResumesWhenItIsBack() async {
        let frame = QRFixtures.frame(ticket, .init(modulePixels: 4, width: 320, height: 240))
        let blank = GrayFrame(width: 320, height: 240, fill: 200)
        let camera = ScriptedCamera([
            .deliver([blank, blank], thenFail: .unplugged(path: "/dev/video0")),  // vanishes mid-stream
            .fail(.noDevice(path: "/dev/video0")),                               // still unplugged
            .deliver([frame, frame], thenFail: nil),                              // plugged back in
        ])
        let fast = ReconnectPolicy(initial: .milliseconds(10), maximum: .milliseconds(40))
        let events = await collect(ScanPipeline(source: camera, debounceWindow: Self.unhurried, reconnect: fast))
        let kinds = events.map { event -> String in
            switch event {
            case .sourceFault(let fault, _): "fault:\(fault)"
            case .sourceRestored: "restored"
            case .scanned(let payload, _, _): "scan:\(payload)"
            case .unreadable: "unreadable"
            }
        }
        #expect(kinds == [
            "fault:\(FrameSourceError.unplugged(path: "/dev/video0"))",
            "fault:\(FrameSourceError.noDevice(path: "/dev/video0"))",
            "restored", "scan:\(ticket)",
        ])
    }

    @Test func withoutReconnectAFaultEndsTheEvents() async {
        let camera = ScriptedCamera([.fail(.permissionDenied(path: "/dev/video0")), .deliver([], thenFail: nil)])
        let events = await collect(ScanPipeline(source: camera))
        #expect(events.count == 1)
        guard case .sourceFault(.permissionDenied, _) = events.first else { Issue.record("\(events)"); return }
    }

    @Test func anUnreadableCodeBecomesOneUnreadableEventWithoutItsContent() async {
        let frame = QRFixtures.frame("\u{1B}[31mRED", .init(modulePixels: 4, width: 320, height: 240))
        let events = await collect(ScanPipeline(source: ScriptedCamera([.deliver([frame, frame, frame], thenFail: nil)]), debounceWindow: Self.unhurried))
        #expect(events.count == 1)
        guard case .unreadable(.controlCharacters, _) = events.first else { Issue.record("\(events)"); return }
        #expect(!events[0].jsonLine.contains("RED"))
    }

    @Test func aRawPipeOfFramesFeedsThePipeline() async throws {
        let dir = TemporaryDirectory("qr-pipe")
        defer { dir.remove() }
        let frame = QRFixtures.frame(ticket, .init(modulePixels: 4, width: 320, height: 240))
        let file = dir.appending("frames.raw")
        try Data(Array(repeating: frame.pixels, count: 6).flatMap { $0 }).write(to: file)
        // The unhurried window, as above: under CI's load the six frames once took longer than 3 s.
        let events = await collect(ScanPipeline(source: RawFrameSource(path: file.path, size: FrameSize(width: 320, height: 240)),
                                                debounceWindow: Self.unhurried))
        #expect(events.count == 1)
        #expect(events.first?.jsonLine.contains("\"payload\":\"\(ticket)\"") == true)
    }
}
