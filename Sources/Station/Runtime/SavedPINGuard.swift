import CheckInCore
import Foundation
import KioskStore
import OperatorConsole

/// The self-service PIN's guard kept in the station's settings (`pin_guard`): a restart of
/// `kiosk run` (a pulled plug, a crash, a stop) neither clears the wrong entries counted so far
/// nor ends a lockout.
extension KioskDatabase {
    /// The guard the last run left, or nil when none was kept (or it cannot be read).
    func savedPINGuard() -> PINGuard.Saved? {
        guard let text = try? setting(.pinGuard) else { return nil }
        return try? JSONDecoder().decode(PINGuard.Saved.self, from: Data(text.utf8))
    }

    func savePINGuard(_ saved: PINGuard.Saved) async throws(StoreError) {
        let text = (try? JSONEncoder().encode(saved)).map { String(decoding: $0, as: UTF8.self) }
        try await setSetting(.pinGuard, text)
    }
}
