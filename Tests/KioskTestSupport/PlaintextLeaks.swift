import Foundation

/// Looks for guest data in plaintext in every file under a data directory: each needle as
/// UTF-8, UTF-16LE and UTF-16BE bytes (SQLite stores text in any of them).
public enum PlaintextLeaks {
    /// `file: "needle" (encoding)` for each hit; badge PDFs (`*.pdf`) are skipped, they are
    /// meant to hold the name.
    public static func find(_ needles: [String], under directory: URL) -> [String] {
        var hits: [String] = []
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = walker?.nextObject() as? URL {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  file.pathExtension != "pdf", let data = FileManager.default.contents(atPath: file.path) else { continue }
            for needle in needles where !needle.isEmpty {
                for (encoding, label) in [(String.Encoding.utf8, "UTF-8"), (.utf16LittleEndian, "UTF-16LE"), (.utf16BigEndian, "UTF-16BE")] {
                    if let bytes = needle.data(using: encoding), data.range(of: bytes) != nil {
                        hits.append("\(file.path.replacingOccurrences(of: directory.path + "/", with: "")): \"\(needle)\" (\(label))")
                    }
                }
            }
        }
        return hits
    }
}
