import Foundation
import OperatorConsole
import QRScan

/// The dedicated scanner named in the configuration (`scanner`): an input event device, grabbed
/// so its keys never reach the console and decoded with the layout it emulates
/// (`scanner_layout`), or a serial/CDC-ACM port whose lines are codes. Never a device found by
/// guessing: the operator's keyboard looks just the same.
///
/// It is read on a thread of its own (blocking reads never sit on the cooperative pool). Faults
/// (missing, no permission, held by another program, unplugged) come out as health states and
/// the device is reopened with backoff until it is back.
public struct ScannerScanSource: ScanSource {
    public let path: String
    public let layout: KeyboardLayout
    public let tabEndsCode: Bool
    let reconnect: ReconnectPolicy

    public init(path: String, layout: KeyboardLayout = .us, tabEndsCode: Bool = false, reconnect: ReconnectPolicy = .standard) {
        self.path = path
        self.layout = layout
        self.tabEndsCode = tabEndsCode
        self.reconnect = reconnect
    }

    public var description: String { "scanner \(path)" }
    public var isCamera: Bool { false }

    public func inputs() -> AsyncStream<ScanInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScanInput.self, bufferingPolicy: .bufferingNewest(256))
        let stop = StopSignal()
        let thread = Thread { [self] in
            run(stop: stop) { continuation.yield($0) }
            continuation.finish()
        }
        thread.name = "kiosk.scanner"
        thread.start()
        continuation.onTermination = { _ in stop.signal() }
        return stream
    }

    /// Opens, reads and reopens the device until the stop comes.
    func run(stop: StopSignal, yield: (ScanInput) -> Void) {
        var failures = 0
        var reported: ScannerError?
        while !stop.isSignalled {
            let error: ScannerError
            do throws(ScannerError) {
                let device = try ScannerDevice.open(path)
                defer { device.close() }
                failures = 0
                reported = nil
                let source = device.source
                yield(.scanner(.reading(source.words)))
                let emit: (DecodedScan) -> Void = { scan in
                    switch scan {
                    case .code(let code, let timing): yield(.scan(ScannerDiagnostics(code: code, source: source, timing: timing)))
                    case .unreadable: yield(.unreadable)
                    }
                }
                let end: ReadEnd
                switch device.kind {
                case .evdev:
                    var reader = EvdevKeyReader(decoder: ScannerKeyDecoder(layout: layout, tabEndsCode: tabEndsCode))
                    end = try reader.read(fd: device.fd, path: path, stop: stop, emit: emit)
                case .serial:
                    end = try SerialLineReader().read(fd: device.fd, path: path, stop: stop, emit: emit)
                }
                if end == .stopped { return }
                error = .unplugged(path: path)
            } catch let caught {
                error = caught
            }
            failures += 1
            if error != reported {
                yield(.scanner(ScannerHealth(error)))
                reported = error
            }
            if stop.wait(reconnect.delay(afterFailures: failures)) { return }
        }
    }
}
