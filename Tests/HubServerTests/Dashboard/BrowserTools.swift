import Foundation
import KioskTestSupport

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
}
