import Foundation

/// Locations of the package's built executables and source folders, for tests that run the
/// real programs as child processes.
public enum BuiltProducts {
    /// The package root, found from this file's path (never from the working directory).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the test bundle, which is also where SwiftPM puts the executables.
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["KIOSK_BIN_DIR"] { return URL(fileURLWithPath: override) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" && !url.lastPathComponent.hasSuffix(".xctest") { url.deleteLastPathComponent() }
        if url.path == "/" { url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }
        else { url.deleteLastPathComponent() }
        return url
    }()

    /// The executable named `name` (e.g. `kiosk`, `checkin-hub`).
    public static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }
}
