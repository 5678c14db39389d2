import Foundation

/// A file read for CSV.swift's stream reader that says it has no more bytes at the end of the
/// file. Foundation's file `InputStream` on Linux keeps answering `hasBytesAvailable` until a
/// read returns nothing, which CSV.swift takes for a read error after the last record of every
/// file longer than its 64 KB buffer.
final class RosterFileStream: InputStream {
    private let descriptor: Int32
    private var status: Stream.Status = .notOpen
    private var atEnd = false
    private var failure: (any Error)?

    init?(path: String) {
        descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        super.init(data: Data())
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { failure }
    override var hasBytesAvailable: Bool { status == .open && !atEnd }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open else { return -1 }
        while true {
            let count = Foundation.read(descriptor, buffer, maxLength)
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                status = .error
                return -1
            }
            // At the end as soon as the last byte is read, not one empty read later: CSV.swift
            // asks `hasBytesAvailable` before reading and takes an empty read for an error.
            var info = stat()
            if count == 0 || (fstat(descriptor, &info) == 0 && lseek(descriptor, 0, SEEK_CUR) >= info.st_size) {
                atEnd = true
            }
            return count
        }
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool { false }
}
