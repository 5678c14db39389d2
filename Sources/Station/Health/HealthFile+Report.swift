import Foundation
import KioskStore
import RosterSync

extension HealthFile {
    /// The printer and camera of the station running on this data directory, from its health
    /// file, for a `kiosk sync` run beside it (its report must not blank what the station said);
    /// ``RosterSync/StationCondition/unknown`` when none runs.
    public func runningCondition() -> StationCondition {
        guard case .object(let status) = statusJSON(), case .bool(true)? = status["running"],
              case .object(let health)? = status["health"] else { return .unknown }
        func part(_ name: String) -> StationCondition.Part? {
            guard case .object(let part)? = health[name], case .string(let state)? = part["state"] else { return nil }
            if case .string(let words)? = part["message"] { return StationCondition.Part(state: state, words: words) }
            return StationCondition.Part(state: state, words: "")
        }
        return StationCondition(printer: part("printer"), camera: part("camera"))
    }
}
