import CheckInCore
import HubAPI
import Hummingbird

/// Station health: each station reports on every sync (any role that sees the event, for its
/// own registered device), and organizers and support read the list, silent stations marked.
struct StationReportController {
    let hub: HubRoutes
    let stations: any StationRepository

    func addReports(to group: RouterGroup<HubRequestContext>) {
        group.put("stations/:device", use: hub.wrap("station report") { request, context in
            let session = try context.requireCaller(), event = try context.requireEvent()
            let device = try context.parameters.require("device")
            try UploadValidation.identifier(device, "deviceID", UploadLimits.deviceIDCharacters)
            try DeviceAuthorization.require(session, devices: [("deviceID", device)])
            let report = try await hub.body(StationReport.self, request, limit: 16 * 1024, advice: "a station report is a few hundred bytes")
            try UploadValidation.stationReport(report)
            try await stations.recordStationReport(event: event.id, deviceID: device, report, receivedAt: .now())
            return Response(status: .noContent)
        })
    }

    func addList(to group: RouterGroup<HubRequestContext>) {
        group.get("stations", use: hub.wrap("stations list") { _, context in
            let event = try context.requireEvent()
            let silence = StationSilence(afterSeconds: hub.configuration.stationSilentSeconds)
            let now = Timestamp.now()
            let listed = try await stations.stationContacts(event: event.id).map { contact in
                StationStatus(deviceID: contact.deviceID, report: contact.report, lastContact: contact.receivedAt,
                              silent: silence.isSilent(lastContact: contact.receivedAt, now: now))
            }
            return try hub.json(StationList(stations: listed, silentAfterSeconds: silence.afterSeconds))
        })
    }
}

/// When a station counts as silent: no report for longer than the configured time.
package struct StationSilence: Sendable {
    package var afterSeconds: Int64

    package init(afterSeconds: Int64) { self.afterSeconds = afterSeconds }

    package func isSilent(lastContact: Timestamp, now: Timestamp) -> Bool {
        now.milliseconds(since: lastContact) > HubRoutes.milliseconds(seconds: afterSeconds)
    }
}
