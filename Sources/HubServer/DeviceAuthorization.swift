import HTTPTypes
import HubAPI

/// The server decides who is speaking: a staff or support session uploads only as the device
/// whose station registration it holds (``StationClaim``); an organizer session may upload for
/// any device (administration tools, `checkin-hub bench`).
enum DeviceAuthorization {
    /// 403 unless the session may upload items naming these devices (`(field, device id)`).
    static func require(_ session: AuthenticatedSession, devices: [(path: String, deviceID: String)]) throws {
        guard session.staff.role < .organizer else { return }
        let own = try registeredDevice(session)
        if let other = devices.first(where: { $0.deviceID != own }) {
            throw HubProblem(
                .forbidden, "Not this station's device",
                detail: "\(other.path) names another device than the station registered on this session. Upload each entry "
                    + "from the station that recorded it; if this station's registration was taken over, register it again.",
                field: other.path, type: ProblemDocument.wrongDeviceProblemType)
        }
    }

    /// The device whose registration a staff or support session holds, or 403.
    @discardableResult
    static func registeredDevice(_ session: AuthenticatedSession) throws -> String {
        guard let device = session.deviceID else {
            throw HubProblem(
                .forbidden, "Register the station first",
                detail: "This session holds no station registration (none yet, or the station signed in again elsewhere): "
                    + "send POST /v1/stations with the device id and device secret, then upload.",
                type: ProblemDocument.stationNotRegisteredProblemType)
        }
        return device
    }
}
