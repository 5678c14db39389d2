import HubAPI

/// Who is uploading, as the hub knows it (never as the upload says): the session's staff
/// member and role, and the device whose registration the session holds.
///
/// Stored beside every check-in, walk-in and undo as `uploaded_by`. For undos it is also the
/// caller of ``UndoPolicy``: support staff and above may undo anything; others only what their
/// registered device recorded, within the event's station undo time.
public struct Uploader: Sendable, Hashable {
    public var staffID: String
    public var role: StaffRole
    public var deviceID: String?

    public init(staffID: String, role: StaffRole, deviceID: String?) {
        self.staffID = staffID
        self.role = role
        self.deviceID = deviceID
    }

    /// A person at the dashboard: their role decides (``UndoPolicy``), no device.
    public init(dashboard actor: StaffInfo) {
        self.init(staffID: actor.id, role: actor.role, deviceID: nil)
    }
}
