import Foundation

/// A roster file read for CSV.swift's stream reader as UTF-8 text, whatever its encoding
/// (``RosterEncoding``): UTF-8 passes through without its BOM, UTF-16 and Windows-1252 are
/// converted a chunk at a time, so no encoding makes the import hold the whole file.
///
/// It also says it has no more bytes exactly at the end: Foundation's file `InputStream` on
/// Linux keeps answering `hasBytesAvailable` until a read returns nothing, which CSV.swift
/// takes for a read error after the last record of every file longer than its 64 KB buffer.
final class RosterFileStream: InputStream {
    private let descriptor: Int32
    private let encoding: RosterEncoding
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?
    private var rawAtEnd = false
    private var started = false
    /// Converted bytes not handed out yet.
    private var pending: [UInt8] = []
    private var pendingIndex = 0
    /// UTF-16 bytes of an unfinished character at the end of the last chunk.
    private var carry: [UInt8] = []

    init?(path: String, encoding: RosterEncoding) {
        descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.encoding = encoding
        super.init(data: Data())
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { failure }

    override var hasBytesAvailable: Bool {
        guard status == .open else { return false }
        refillIfEmpty()
        return pendingIndex < pending.count
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open else { return -1 }
        refillIfEmpty()
        if failure != nil { return -1 }
        let count = min(maxLength, pending.count - pendingIndex)
        pending.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + pendingIndex, count: count)
        }
        pendingIndex += count
        return count
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool { false }

    /// Converts raw chunks until there is output or the file ends.
    private func refillIfEmpty() {
        while pendingIndex >= pending.count && !rawAtEnd && failure == nil {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            var raw = [UInt8](repeating: 0, count: 1 << 16)
            let count = raw.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                status = .error
                return
            }
            if count == 0 {
                rawAtEnd = true
                if !carry.isEmpty { pending.append(contentsOf: [0xEF, 0xBF, 0xBD]) }  // a cut-off character: U+FFFD
                carry = []
                return
            }
            var bytes = raw[..<count]
            if !started {
                started = true
                bytes = bytes.dropFirst(Self.byteOrderMarkLength(bytes, encoding))
            }
            convert(bytes)
        }
    }

    static func byteOrderMarkLength(_ start: ArraySlice<UInt8>, _ encoding: RosterEncoding) -> Int {
        switch encoding {
        case .utf8WithBOM: start.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        case .utf16LittleEndian: start.starts(with: [0xFF, 0xFE]) ? 2 : 0
        case .utf16BigEndian: start.starts(with: [0xFE, 0xFF]) ? 2 : 0
        case .utf8, .windows1252: 0
        }
    }

    private func convert(_ bytes: ArraySlice<UInt8>) {
        switch encoding {
        case .utf8, .utf8WithBOM:
            pending.append(contentsOf: bytes)
        case .windows1252:
            for byte in bytes { append(RosterTextDecoding.windows1252Scalar(byte)) }
        case .utf16LittleEndian, .utf16BigEndian:
            let little = encoding == .utf16LittleEndian
            let all = carry + bytes
            var units: [UInt16] = []
            units.reserveCapacity(all.count / 2)
            var index = all.startIndex
            while index + 1 < all.endIndex {
                let (first, second) = (UInt16(all[index]), UInt16(all[index + 1]))
                units.append(little ? first | second << 8 : first << 8 | second)
                index += 2
            }
            // A high surrogate waits for its pair in the next chunk.
            var usable = units.count
            if let last = units.last, UTF16.isLeadSurrogate(last) { usable -= 1 }
            carry = Array(all[(all.startIndex + usable * 2)...])
            for result in Unicode.UTF16.decode(units[..<usable]) { append(result) }
        }
    }

    private func append(_ scalar: Unicode.Scalar) {
        pending.append(contentsOf: UTF8.encode(scalar)!)
    }
}

private extension Unicode.UTF16 {
    /// The scalars of some code units, U+FFFD for each broken surrogate.
    static func decode(_ units: ArraySlice<UInt16>) -> [Unicode.Scalar] {
        var iterator = units.makeIterator()
        var decoder = Unicode.UTF16()
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(units.count)
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return scalars
            case .error: scalars.append("\u{FFFD}")
            }
        }
    }
}
