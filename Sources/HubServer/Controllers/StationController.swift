import CheckInCore
import Foundation
import HubAPI
import Hummingbird
import Logging

/// Station registration: a device id (and its secret) bound to the caller's session.
struct StationController {
    let hub: HubRoutes
    let sessions: any SessionRepository

    func add(to group: RouterGroup<HubRequestContext>) {
        group.post(RouterPath(HubPaths.stations), use: hub.wrap("stations") { request, context in
            let session = try context.requireCaller()
            let body = try await hub.body(StationRegistrationRequest.self, request)
            let name = Sanitized.text(body.name).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !UploadValidation.exceeds(name, UploadLimits.stationCharacters) else {
                throw HubProblem.invalid("name", "Give the station a name of 1 to \(UploadLimits.stationCharacters) characters.")
            }
            if let id = body.deviceID { try UploadValidation.identifier(id, "deviceID", UploadLimits.deviceIDCharacters) }
            if let secret = body.deviceSecret, !UploadLimits.deviceSecretCharacters.contains(secret.utf8.count) {
                throw HubProblem.invalid("deviceSecret", "A device secret is \(UploadLimits.deviceSecretCharacters.lowerBound) to "
                    + "\(UploadLimits.deviceSecretCharacters.upperBound) bytes of random text; leave it out and the hub issues one.")
            }
            // Without a secret of its own the station gets one issued, returned this once.
            let issuedSecret = body.deviceSecret == nil ? Tokens.token() : nil
            let secret = body.deviceSecret ?? issuedSecret ?? ""
            let claim = StationClaim(
                deviceID: body.deviceID ?? Tokens.identifier("dev"), secretHash: Tokens.hash(secret), name: name,
                sessionID: session.sessionID, staffID: session.staff.id, now: .now())
            guard try await sessions.registerStation(claim) == .registered else {
                throw HubProblem(
                    .conflict, "Device id taken",
                    detail: "This device id belongs to another station. Register with the device secret it was registered with, "
                        + "or without a device id to be issued a new one.",
                    field: "deviceID", type: ProblemDocument.deviceTakenProblemType)
            }
            hub.logger.info("station registered", metadata: ["session": "\(session.sessionID)", "device": "\(claim.deviceID)"])
            return try hub.json(StationRegistration(
                deviceID: claim.deviceID, name: name, registeredBy: session.staff, registeredAt: claim.now, deviceSecret: issuedSecret))
        })
    }
}
