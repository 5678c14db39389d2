import Foundation

/// Prints badges as PDF files into a folder (`--printer pdf:DIR`, and the default with no
/// printer configured): `<code>-<time>.pdf`, written atomically.
public struct PDFFolderPrinter: BadgePrinter {
    public let folder: URL
    /// Renders a badge; the minimal built-in renderer unless the badge area's is plugged in.
    let render: @Sendable (BadgeContent) throws -> Data

    public init(folder: URL, render: (@Sendable (BadgeContent) throws -> Data)? = nil) {
        self.folder = folder
        self.render = render ?? { MinimalBadgePDF.document(for: $0) }
    }

    public var name: String { "pdf:\(folder.path)" }

    public func state() async -> PrinterState {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            return isDirectory.boolValue && FileManager.default.isWritableFile(atPath: folder.path) ? .ready : .needsAttention("badge folder not writable")
        }
        return .ready
    }

    public func printBadge(_ badge: BadgeContent) async -> BadgeOutcome {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let safeCode = String(badge.code.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.prefix(40).map(Character.init))
            let stamp = Int(Date().timeIntervalSince1970 * 1000)
            let file = folder.appendingPathComponent("\(safeCode.isEmpty ? "badge" : safeCode)-\(stamp).pdf")
            try render(badge).write(to: file, options: .atomic)
            return .printed(file.path)
        } catch {
            return .failed("cannot write the badge PDF: \((error as NSError).localizedDescription)")
        }
    }
}

/// `--printer none`: no badges.
public struct NoBadgePrinter: BadgePrinter {
    public init() {}
    public var name: String { "none" }
    public func state() async -> PrinterState { .disabled }
    public func printBadge(_ badge: BadgeContent) async -> BadgeOutcome { .failed("printing is off (--printer none)") }
}
