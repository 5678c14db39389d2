import Foundation

/// A fresh directory under the system's temporary folder, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init(_ prefix: String = "kiosk-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    public func appending(_ component: String) -> URL { url.appendingPathComponent(component) }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
