import Foundation

/// The expected content of a frame corpus: `truth.json` mapping each file name to its category,
/// size and payloads (`[]` for frames without a code).
public struct CorpusTruth: Sendable {
    public struct Entry: Sendable, Equatable {
        public var file: String
        public var category: String
        public var payloads: [String]
    }

    /// Entries sorted by file name.
    public var entries: [Entry]
    /// The folder holding the frames.
    public var directory: URL

    /// Reads `truth.json`; frames are looked up next to it.
    public init(path: String) throws(FrameSourceError) {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .unreadableFile(path: path, reason: "is not a readable truth.json (an object: file -> {category, payloads})")
        }
        var entries: [Entry] = []
        for (file, value) in object {
            guard let fields = value as? [String: Any], let payloads = fields["payloads"] as? [String] else { continue }
            entries.append(Entry(file: file, category: fields["category"] as? String ?? "uncategorized", payloads: payloads))
        }
        self.entries = entries.sorted { $0.file < $1.file }
        self.directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    }

    public func path(of entry: Entry) -> String { directory.appendingPathComponent(entry.file).path }
}
