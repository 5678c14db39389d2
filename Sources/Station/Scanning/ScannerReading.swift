import Foundation
import OperatorConsole

/// How reading a scanner ended.
enum ReadEnd: Equatable {
    /// The station stops.
    case stopped
    /// End of file: the device went away (or the recorded events ended).
    case ended
}

/// Reads key events from an event device, or recorded ones from a pipe, until the stop comes
/// or the device goes away, decoding them with the scanner's layout.
struct EvdevKeyReader {
    var decoder: ScannerKeyDecoder

    mutating func read(fd: Int32, path: String, stop: StopSignal, emit: (DecodedScan) -> Void) throws(ScannerError) -> ReadEnd {
        var records = InputEventRecords()
        var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
        while true {
            let count = try readChunk(fd: fd, path: path, into: &buffer, stop: stop)
            guard let count else { return .stopped }
            if count == 0 { return .ended }
            let events = buffer.withUnsafeBytes { records.append(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            for event in events {
                if let scan = decoder.handle(event) { emit(scan) }
            }
        }
    }
}

/// Reads lines from a serial scanner: each ends at CR, LF or CR LF.
struct SerialLineReader {
    /// Longer lines are no ticket (codes have at most 256 characters): dropped whole.
    static let maximumLineBytes = 4096

    func read(fd: Int32, path: String, stop: StopSignal, emit: (DecodedScan) -> Void) throws(ScannerError) -> ReadEnd {
        var lines = BoundedLines(limit: Self.maximumLineBytes)
        var buffer = [UInt8](repeating: 0, count: 1024)
        var lineStarted: ContinuousClock.Instant?
        while true {
            let count = try readChunk(fd: fd, path: path, into: &buffer, stop: stop)
            guard let count else { return .stopped }
            // A serial port at end of file has hung up: the scanner was unplugged.
            if count == 0 { return .ended }
            let now = ContinuousClock.now
            let chunk = buffer.prefix(count).map { $0 == 13 ? 10 : $0 }
            let started = lineStarted ?? now
            for line in lines.append(Data(chunk)) {
                emit(.code(line, ScanTiming(keyGaps: [], duration: now - started)))
            }
            lineStarted = chunk.last == 10 ? nil : (chunk.lastIndex(of: 10) == nil ? started : now)
        }
    }
}

/// One read once `fd` is readable: the byte count (0 at end of file), `nil` when the stop came.
private func readChunk(fd: Int32, path: String, into buffer: inout [UInt8], stop: StopSignal) throws(ScannerError) -> Int? {
    while true {
        if stop.waitForInput(on: fd) == .stopped { return nil }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count >= 0 { return count }
        if errno == EINTR || errno == EAGAIN { continue }
        throw ScannerError(errno: errno, path: path, operation: "read")
    }
}
