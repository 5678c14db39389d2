import CheckInCore
import HubAPI

/// A check-in row as stored, with the answer it got: what ``CheckInIngest`` reads of a guest's
/// past and of a replayed key.
public struct StoredCheckIn: Sendable {
    public var upload: CheckInUpload
    public var result: CheckInResult
    public var undone: Bool

    public init(upload: CheckInUpload, result: CheckInResult, undone: Bool) {
        self.upload = upload
        self.result = result
        self.undone = undone
    }

    /// Counts for the rules: an accepted movement (entry or exit) not undone.
    public var isMovement: Bool { result.status == .accepted && !undone }
}
