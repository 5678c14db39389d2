import Foundation
import KioskTestSupport
import Testing

/// What the browser tests need on the machine: Debian's `chromium` and a Python with Playwright
/// (Kiosk/setup-browser-tests.sh installs both; Playwright's own browser download is not used).
enum BrowserTools {
    static let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    static let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/HubServerTests/Browser/dashboard_test.py")

    /// The Python that has Playwright: `DASHBOARD_PYTHON`, else the virtual environment
    /// Kiosk/setup-browser-tests.sh makes under .build/, else `python3` on the PATH.
    static let python: String? = {
        var candidates = [BuiltProducts.packageRoot.appendingPathComponent(".build/playwright/bin/python").path, "/usr/bin/python3"]
        if let chosen = ProcessInfo.processInfo.environment["DASHBOARD_PYTHON"] { candidates.insert(chosen, at: 0) }
        return candidates.first { path in
            FileManager.default.isExecutableFile(atPath: path)
                && (try? run(URL(fileURLWithPath: path), ["-c", "import playwright.sync_api"], timeout: 60))?.status == 0
        }
    }()

    /// Why the browser tests cannot run here, or `nil` when they can.
    static let missing: String? = {
        if !FileManager.default.isExecutableFile(atPath: chromium) { return "no chromium at \(chromium) (apt-get install chromium)" }
        if python == nil { return "no Python with Playwright (bash Kiosk/setup-browser-tests.sh)" }
        return nil
    }()

    /// In CI (`CI=true`) a missing browser fails the test instead of skipping it.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs one Playwright script against a hub: screenshots go to the hub's `screenshots`
    /// folder (and to `label/` under `KIOSK_SCREENSHOTS_DIR` when set), the run's output is
    /// printed, and a failure shows the script's output with `logs` (what the hubs saw). Every
    /// name in `screenshots` must have been written when the script passed.
    @discardableResult
    static func runScript(_ script: URL, label: String, hub: RealHub, environment: [String: String],
                          screenshots: [String], logs: @autoclosure () -> String) throws -> ProcessResult {
        let shots = hub.directory.appending("screenshots").path
        var folders = [shots]
        if let extra = ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS_DIR"], !extra.isEmpty { folders.append(extra + "/" + label) }
        let started = Date()
        let result = try run(URL(fileURLWithPath: try #require(python)), [script.path],
                             environment: environment.merging(["SCREENSHOT_DIRS": folders.joined(separator: ":"), "CHROMIUM": chromium]) { $1 },
                             timeout: 240)
        let name = script.lastPathComponent
        print("\(name): status \(result.status) after \(String(format: "%.1f", Date().timeIntervalSince(started))) s\n\(result.stdout)")
        #expect(result.status == 0, "\(name) failed:\n\(result.stdout)\n\(result.stderr)\n\(logs())")
        for page in screenshots where result.status == 0 {
            #expect(FileManager.default.fileExists(atPath: shots + "/" + page), "\(page) was not written")
        }
        return result
    }
}
