import CEvdev
import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import OperatorConsole
import QRScan
@testable import Station
import Testing

/// The dedicated scanner's device path: a serial port played by a pseudo-terminal, a real
/// evdev device made with uinput where the kernel allows it, and the faults of each. The
/// waits block, so the suite runs off the cooperative pool.
@Suite(.hangGuard, .blocking)
struct ScannerDeviceTests {
    /// Reconnect quickly: the tests unplug and replug.
    static let quick = ReconnectPolicy(initial: .milliseconds(50), maximum: .milliseconds(200))

    func isReading(_ input: ScanInput) -> Bool { if case .scanner(.reading) = input { true } else { false } }

    func fault(_ input: ScanInput) -> ScannerFault? { if case .scanner(.fault(let fault, _)) = input { fault } else { nil } }

    @Test func aSerialScannersLinesEndingInCRorLFAreCodesWithTheirSource() throws {
        let port = try PseudoTerminal()
        let probe = ScanProbe(ScannerScanSource(path: port.slavePath, reconnect: Self.quick))
        defer { probe.stop() }
        #expect(try probe.next(where: isReading) == ScanInput.scanner(.reading("serial scanner \(port.slavePath)")))
        port.write("DEMO-0001\r")
        port.write("DEMO-0002\n")
        port.write("DEMO-0003\r\n\r\n")
        port.write("https://t.example/?c=AB")
        Thread.sleep(forTimeInterval: 0.05)
        port.write("-12_x.y&z=1\r")
        var codes: [String] = []
        for _ in 0..<4 { codes.append(try probe.nextCode()) }
        #expect(codes == ["DEMO-0001", "DEMO-0002", "DEMO-0003", "https://t.example/?c=AB-12_x.y&z=1"])
        guard case .scan(let last) = probe.inputs.last(where: { if case .scan = $0 { true } else { false } }) else { return }
        #expect(last.source == .serial(device: port.slavePath))
        #expect(last.source.checkInSource == .scanner)
        // A serial line carries no key times, only how long it took to come in (not asserted:
        // a loaded machine may read both halves at once).
        #expect(last.timing?.keyGaps == [])
    }

    @Test func anUnpluggedSerialScannerIsAFaultUntilItIsBackThenItReadsAgain() throws {
        let directory = TemporaryDirectory("scanner")
        defer { directory.remove() }
        let link = DeviceLink(url: directory.appending("kiosk-scanner"))
        var port = try PseudoTerminal()
        try link.point(to: port.slavePath)
        let probe = ScanProbe(ScannerScanSource(path: link.url.path, reconnect: Self.quick))
        defer { probe.stop() }
        try probe.next(where: isReading)
        port.write("DEMO-0001\r")
        #expect(try probe.nextCode() == "DEMO-0001")

        port.close()
        let unplugged = try probe.next { fault($0) != nil }
        #expect([.unplugged, .missing].contains(fault(unplugged)))
        guard case .scanner(.fault(_, let fix)) = unplugged else { return }
        #expect(fix.contains("plug"), "the fix says what to do: \(fix)")

        port = try PseudoTerminal()
        try link.point(to: port.slavePath)
        try probe.next(where: isReading)
        port.write("DEMO-0002\r")
        #expect(try probe.nextCode() == "DEMO-0002")
    }

    @Test func aMissingScannerIsAFaultSayingWhatToDoAndNoCrash() throws {
        let probe = ScanProbe(ScannerScanSource(path: "/dev/input/by-id/usb-No_Such_Scanner-event-kbd", reconnect: Self.quick))
        defer { probe.stop() }
        let input = try probe.next { fault($0) != nil }
        guard case .scanner(.fault(let fault, let fix)) = input else { return }
        #expect(fault == .missing)
        #expect(fix.contains("plug it in") && fix.contains("/dev/input/by-id"))
        // Reported once, not at every retry.
        Thread.sleep(forTimeInterval: 0.4)
        #expect(probe.inputs.count == 1)
    }

    @Test func aFileThatIsNoDeviceIsRefusedWithTheSettingToFix() throws {
        let directory = TemporaryDirectory("scanner")
        defer { directory.remove() }
        try "not a scanner".write(to: directory.appending("scanner"), atomically: true, encoding: .utf8)
        let probe = ScanProbe(ScannerScanSource(path: directory.appending("scanner").path, reconnect: Self.quick))
        defer { probe.stop() }
        let input = try probe.next { fault($0) != nil }
        #expect(input == ScanInput.scanner(.fault(.unusable, fix: ScannerError.notAScanner(path: directory.appending("scanner").path).description)))
    }

    @Test func theScannerPartOfTheStationsHealthShowsOnTheFaultLineAndInJSON() {
        let health = StationHealth(scanner: ScannerHealth(.permissionDenied(path: "/dev/kiosk-scanner-kbd")))
        #expect(health.mostUrgent?.words == "Scanner not reading — type codes or use the camera")
        #expect(health.mostUrgent?.fix?.contains("udev rule") == true)
        guard case .object(let members) = health.json, case .object(let scanner)? = members["scanner"] else {
            Issue.record("no scanner in \(health.json)")
            return
        }
        #expect(scanner["state"] == .string("permission"))
        #expect(StationHealth(scanner: .reading("evdev scanner /dev/x")).mostUrgent == nil)
    }

    @Test(.enabled(if: VirtualKeyboard.availability.available, Comment(rawValue: VirtualKeyboard.availability.reason)))
    func aRealEventDeviceIsGrabbedSoNoOneElseSeesItsKeysAndItsKeysAreDecoded() throws {
        let keyboard = try VirtualKeyboard(name: "Kiosk Test Scanner", vendor: 0x1209, product: 0x0001)
        let node = try keyboard.eventNode()
        let probe = ScanProbe(ScannerScanSource(path: node, layout: .de, reconnect: Self.quick))
        defer { probe.stop() }
        let reading = try probe.next(where: isReading)
        #expect(reading == ScanInput.scanner(.reading("evdev scanner \(node) (Kiosk Test Scanner)")))
        // Another reader of the same node (the console's keyboard handler is one) gets nothing.
        let other = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(other) }
        #expect(cevdev_grab(other, 1) == -1 && errno == EBUSY, "the station holds the grab")
        var recording = KeystrokeRecording()
        recording.type(Typist.strokes("ab/z-y@1", layout: "de") + [.plain(KEY_ENTER)])
        keyboard.play(recording.events)
        #expect(try probe.nextCode() == "ab/z-y@1")
        var buffer = [UInt8](repeating: 0, count: InputEvent.size)
        #expect(read(other, &buffer, buffer.count) == -1 && errno == EAGAIN, "no event reached the other reader")
    }
}

/// The scanner keys of the configuration file.
@Suite struct ScannerConfigurationTests {
    func load(_ text: String) throws(StationError) -> StationConfiguration {
        let directory = TemporaryDirectory("scanner-conf")
        defer { directory.remove() }
        try? text.write(to: directory.appending("kiosk.conf"), atomically: true, encoding: .utf8)
        return try StationConfiguration.load(directory.appending("kiosk.conf"))
    }

    @Test func theDefaultsAreUSLayoutAndThirtyMillisecondsSixCharacters() throws {
        let configuration = try load("")
        #expect(configuration.scanner == nil)
        #expect(configuration.scannerLayout == "us")
        #expect(configuration.wedge == WedgeThresholds(maxKeyGap: .milliseconds(30), minLength: 6))
    }

    @Test func scannerLayoutAndWedgeThresholdsAreRead() throws {
        let configuration = try load("""
            scanner = /dev/input/by-id/usb-Scanner-event-kbd
            scanner_layout = GB
            scanner_tab_ends_code = yes
            wedge_max_key_gap_ms = 45
            wedge_min_length = 8
            """)
        #expect(configuration.scanner == "/dev/input/by-id/usb-Scanner-event-kbd")
        #expect(configuration.scannerLayout == "uk")
        #expect(configuration.scannerTabEndsCode)
        #expect(configuration.wedge == WedgeThresholds(maxKeyGap: .milliseconds(45), minLength: 8))
        #expect(try load("wedge_max_key_gap_ms = 0").wedge.isEnabled == false)
    }

    @Test func anUnknownLayoutOrAnOutOfRangeThresholdNamesTheLine() {
        do {
            _ = try load("scanner = /dev/ttyACM0\nscanner_layout = dvorak")
            Issue.record("an unknown layout was accepted")
        } catch {
            #expect(Self.withoutFile(error) == .configuration(file: "", line: 2, reason: "scanner_layout must be one of us, uk, de, fr"))
        }
        #expect(throws: StationError.self) { try load("wedge_max_key_gap_ms = 900") }
        #expect(throws: StationError.self) { try load("wedge_min_length = 1") }
    }

    static func withoutFile(_ error: StationError) -> StationError {
        if case .configuration(_, let line, let reason) = error { return .configuration(file: "", line: line, reason: reason) }
        return error
    }
}
