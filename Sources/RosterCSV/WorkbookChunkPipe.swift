import Foundation

/// A bounded hand-over of inflated chunks from the thread that unpacks a workbook part to the
/// parser that reads it: the producer waits while a few chunks are queued, so a part of any
/// size passes through a quarter of a megabyte.
final class ChunkPipe: @unchecked Sendable {
    /// Thrown to the producer once the reader stopped: the rest of the part is not wanted.
    struct Cancelled: Error {}

    private let condition = NSCondition()
    // All below under `condition`.
    private var chunks: [Data] = []
    private var offset = 0
    private var finished = false
    private var cancelled = false
    private var outcome: RosterFileError?
    private let capacity: Int

    init(capacity: Int = 4) { self.capacity = capacity }

    /// Queues a chunk, waiting while the queue is full; throws ``Cancelled`` once the reader stopped.
    func put(_ chunk: Data) throws(Cancelled) {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        if !chunk.isEmpty { chunks.append(chunk) }
        condition.broadcast()
    }

    /// The producer is done: `error` when the part could not be unpacked whole.
    func finish(_ error: RosterFileError?) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        outcome = error
        condition.broadcast()
    }

    /// Copies up to `count` bytes, waiting for the producer; 0 at the end of the part, -1 when
    /// the producer failed (the parser then stops; the failure is in ``waitForProducer()``).
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        guard let chunk = chunks.first else { return outcome == nil ? 0 : -1 }
        let taken = min(count, chunk.count - offset)
        chunk.withUnsafeBytes { bytes in
            buffer.update(from: bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: taken)
        }
        offset += taken
        if offset == chunk.count {
            chunks.removeFirst()
            offset = 0
            condition.broadcast()
        }
        return taken
    }

    /// The reader wants no more: a waiting producer is released and stops at its next chunk.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
    }

    /// Waits until the producer has finished; its error, if it failed.
    func waitForProducer() -> RosterFileError? {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
        return outcome
    }
}

/// The pipe as the `InputStream` that `XMLParser(stream:)` pulls from.
final class PipeInputStream: InputStream {
    private let pipe: ChunkPipe

    init(pipe: ChunkPipe) {
        self.pipe = pipe
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { true }
    override var streamStatus: Stream.Status { .open }
    override var streamError: (any Error)? { nil }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        pipe.read(into: buffer, count: len)
    }
}
