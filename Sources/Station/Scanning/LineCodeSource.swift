import CheckInCore
import Foundation

/// Lines of text as codes: a headless station's keyboard-wedge scanner (or a pipe) types one
/// code per line. Reading blocks, so it runs on its own thread, off the cooperative pool.
public struct LineCodeSource: ScanSource {
    let handle: FileHandle
    let source: CheckInSource

    public init(handle: FileHandle = .standardInput, source: CheckInSource = .scanner) {
        self.handle = handle
        self.source = source
    }

    public var description: String { "codes from standard input" }
    public var isCamera: Bool { false }

    /// Longer lines are no ticket code (codes have at most 256 characters): the line is dropped
    /// up to its newline rather than buffered without end.
    static let maximumLineBytes = 4096

    public func inputs() -> AsyncStream<ScanInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScanInput.self)
        let handle = self.handle, source = self.source
        let thread = Thread {
            var lines = BoundedLines(limit: Self.maximumLineBytes)
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                for line in lines.append(chunk) { continuation.yield(Self.input(line, source: source)) }
            }
            if let rest = lines.finish() { continuation.yield(Self.input(rest, source: source)) }
            continuation.finish()
        }
        thread.name = "kiosk.lines"
        thread.start()
        return stream
    }

    /// A line as a code, or as a headless caller's answers (``HeadlessAnswerLine``).
    static func input(_ line: String, source: CheckInSource) -> ScanInput {
        if let answered = HeadlessAnswerLine(line) { return .answered(code: answered.code, answers: answered.answers) }
        return .code(line, source: source)
    }
}
