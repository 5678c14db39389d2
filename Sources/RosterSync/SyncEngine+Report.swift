import CheckInCore
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Reports the station's condition from `source` with every sync cycle from now on.
    public func reportCondition(from source: @escaping StationConditionSource) {
        conditionSource = source
    }

    /// Sends the hub this station's health report for the event it syncs. Never fails the sync:
    /// a hub without the route (404, an older hub) or any error is logged, and the sync goes on.
    func sendStationReport(pending: Int) async {
        guard let session, !session.signedOut, let event = try? database.syncEvent() else { return }
        let report = await stationReport(pending: pending, staffName: session.staffName)
        let device = database.deviceID
        let eventID = event.eventID
        do throws(SyncError) {
            try await authorized { client, token in try await client.reportStation(token: token, event: eventID, deviceID: device, report: report) }
            if stationReportsUnsupported {
                stationReportsUnsupported = false
                logger.info("the hub takes station health reports again")
            }
        } catch .refused(404, _) {
            // An older hub (or an event this account no longer sees): said once, and tried again
            // each cycle (the hub may be upgraded under us).
            if !stationReportsUnsupported {
                logger.notice("the hub answered the station health report 404 (a hub before station reports, or the event is gone); syncing goes on")
            }
            stationReportsUnsupported = true
        } catch {
            logger.warning("station health report not sent; syncing goes on", metadata: ["reason": "\(error)"])
        }
    }

    /// The report, its strings cut to what the hub accepts (``UploadLimits``).
    func stationReport(pending: Int, staffName: String) async -> StationReport {
        let condition = await conditionSource?() ?? .unknown
        func cut(_ text: String, _ limit: Int) -> String { String(Sanitized.text(text).prefix(limit)) }
        func part(_ part: StationCondition.Part?) -> StationPart? {
            part.map { StationPart(state: cut($0.state, UploadLimits.stateCharacters), words: cut($0.words, UploadLimits.stateWordsCharacters)) }
        }
        let name = (try? database.stationName()) ?? database.deviceID
        return StationReport(
            name: cut(name, UploadLimits.stationCharacters), version: ProductVersion.current, pending: pending,
            printer: part(condition.printer), camera: part(condition.camera),
            staffName: cut(staffName, UploadLimits.operatorNameCharacters), stationTime: .now())
    }
}
