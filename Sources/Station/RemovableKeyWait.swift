import Foundation
import KioskStore
import Logging

/// What `kiosk run` does while its storage key's removable medium is not plugged in: it says so
/// (a plain screen on the terminal, tty1 under systemd; one JSON line headless) and looks again
/// every second until the key is there, then the station starts as usual. Nothing is opened
/// meanwhile, so a stop (SIGTERM) simply ends the process.
enum RemovableKeyWait {
    static let pollInterval: Duration = .seconds(1)

    static func run(path: String, headless: Bool, logger: Logger, open: () -> Result<KioskDatabase, StoreError>) async -> Result<KioskDatabase, StoreError> {
        let message = "The storage key for this station's guest data is on a USB stick, and \(path) is not there. "
            + "Plug the stick in: the station starts by itself."
        logger.warning("waiting for the storage key's removable medium", metadata: ["path": "\(path)"])
        FileHandle.standardError.write(Data("kiosk run: \(message)\n".utf8))
        if headless {
            let line: [String: JSONValue] = ["event": "storage_key_waiting", "path": .string(path), "message": .string(message)]
            FileHandle.standardOutput.write(Data((JSONValue.object(line).serialized + "\n").utf8))
        } else {
            let screen = "\u{1B}[2J\u{1B}[H" + """
                CHECK-IN STATION: WAITING FOR THE STORAGE KEY

                The key that opens this station's guest data is on a USB stick,
                and it is not plugged in (\(path) is not there).

                Plug the stick in: the station starts by itself.

                Check-ins recorded so far are safe and unchanged.
                Stick lost? Support opens the data with the recovery key on paper:
                sudo kiosk storage recover.
                """
            FileHandle.standardOutput.write(Data((screen + "\n").utf8))
        }
        while true {
            try? await Task.sleep(for: pollInterval)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let opened = open()
            if case .failure(.storageKey(.removableKeyAbsent)) = opened { continue }
            logger.notice("the storage key's removable medium is there", metadata: ["path": "\(path)"])
            return opened
        }
    }
}
