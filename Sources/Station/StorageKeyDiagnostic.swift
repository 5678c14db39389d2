import Foundation
import KioskStore
import Logging

/// What `kiosk run` shows when the storage key is missing or does not open the data: there is
/// no database to run the console on, so the message is written to the terminal (tty1 under
/// systemd) as plain text and stays there until the operator presses Enter or the service is
/// stopped; then the station exits 75. Headless, one JSON line and exit 75 at once.
enum StorageKeyDiagnostic {
    static func show(_ error: StorageKeyError, headless: Bool, logger: Logger) -> Int32 {
        logger.critical("storage key unavailable", metadata: ["error": "\(error)"])
        FileHandle.standardError.write(Data("kiosk run: \(error.description)\n".utf8))
        if headless {
            let line: [String: JSONValue] = ["event": "storage_key_unavailable", "message": .string(error.description)]
            FileHandle.standardOutput.write(Data((JSONValue.object(line).serialized + "\n").utf8))
            return StationLauncher.storageUnavailableStatus
        }
        let screen = "\u{1B}[2J\u{1B}[H" + """
            CHECK-IN STATION: GUEST DATA CANNOT BE OPENED

            \(error.description)

            Check-ins recorded so far are safe and unchanged.
            Support: `sudo kiosk storage show` says where the key should be;
            `sudo kiosk storage recover` opens the data with the recovery key on paper.

            Press Enter to try again.
            """
        FileHandle.standardOutput.write(Data((screen + "\n").utf8))
        _ = readLine()
        return StationLauncher.storageUnavailableStatus
    }
}
