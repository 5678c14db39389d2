import Foundation

/// How a roster file's bytes were read as text.
public enum RosterEncoding: String, Sendable, Equatable {
    case utf8 = "UTF-8"
    case utf8WithBOM = "UTF-8 with BOM"
    case utf16LittleEndian = "UTF-16 LE"
    case utf16BigEndian = "UTF-16 BE"
    /// What Excel writes as "CSV" in much of Europe: read when the file is not valid UTF-8.
    case windows1252 = "Windows-1252"
}

/// Reads a roster file's bytes as text, in the encodings organizers' spreadsheets produce:
/// UTF-8 with or without BOM, UTF-16 as spreadsheets save "Unicode text" (with its BOM, or
/// without one when every other byte of the start is zero), and Windows-1252 as the fallback for
/// bytes that are not UTF-8 (the caller warns: the guess can be wrong for other code pages).
enum RosterTextDecoding {
    /// Works on the file's `Data` as it is: a copy into an array held the file twice while a
    /// 100k roster was read (the import's memory target is 100 MB).
    static func decode(_ data: Data) throws(RosterFileError) -> (text: String, encoding: RosterEncoding) {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            guard let text = String(validating: data.dropFirst(3), as: UTF8.self) else { throw .notUTF8 }
            return (text, .utf8WithBOM)
        }
        if data.starts(with: [0xFF, 0xFE]) { return (try utf16(data.dropFirst(2), littleEndian: true), .utf16LittleEndian) }
        if data.starts(with: [0xFE, 0xFF]) { return (try utf16(data.dropFirst(2), littleEndian: false), .utf16BigEndian) }
        if let littleEndian = bomlessUTF16(data) {
            return (try utf16(data[...], littleEndian: littleEndian), littleEndian ? .utf16LittleEndian : .utf16BigEndian)
        }
        if let text = String(validating: data, as: UTF8.self) { return (text, .utf8) }
        return (windows1252(data), .windows1252)
    }

    /// Whether the start reads as UTF-16 without a BOM: mostly ASCII characters, so that three
    /// pairs of bytes in four have one zero byte, always on the same side, and no character is
    /// NUL. `true`: little endian (the zero second); `false`: big endian; `nil`: not UTF-16.
    static func bomlessUTF16(_ data: Data) -> Bool? {
        let start = Array(data.prefix(128))
        guard start.count >= 8 else { return nil }
        let pairs = stride(from: 0, to: start.count - 1, by: 2).map { (start[$0], start[$0 + 1]) }
        guard !pairs.contains(where: { $0.0 == 0 && $0.1 == 0 }) else { return nil }
        let zeroSecond = pairs.count { $0.0 != 0 && $0.1 == 0 }, zeroFirst = pairs.count { $0.0 == 0 && $0.1 != 0 }
        if zeroSecond * 4 >= pairs.count * 3 && zeroFirst == 0 { return true }
        if zeroFirst * 4 >= pairs.count * 3 && zeroSecond == 0 { return false }
        return nil
    }

    private static func utf16(_ bytes: Data, littleEndian: Bool) throws(RosterFileError) -> String {
        guard bytes.count % 2 == 0 else { throw .notUTF16 }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        guard let text = String(validating: units, as: UTF16.self) else { throw .notUTF16 }
        return text
    }

    /// Windows-1252: Latin-1, except 0x80–0x9F, which hold typographic characters (€, quotes,
    /// dashes, Š, Ž, Ÿ…); its five unassigned bytes read as U+FFFD.
    static func windows1252(_ bytes: Data) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes { scalars.append(windows1252Scalar(byte)) }
        return String(scalars)
    }

    /// One Windows-1252 byte's character.
    static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let code = highWindows1252[Int(byte) - 0x80]
        return code == 0 ? "\u{FFFD}" : Unicode.Scalar(code) ?? "\u{FFFD}"
    }

    /// 0x80–0x9F of Windows-1252 (0 where the code page assigns nothing).
    private static let highWindows1252: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}
