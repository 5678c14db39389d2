import Foundation
import KioskStore
import PretixClient

extension PretixSync {
    /// Makes this station the pretix device of a scanned handshake (the QR code pretix shows
    /// when the organizer connects a device), with no one to choose for it: the device's only
    /// event and list, else the event and list pretix suggests for it now (`device/eventselection`:
    /// the event running or next, the first list of the device's gate). The token is spent by the
    /// first step: a choice that fails after it needs no new one (`kiosk pretix connect --event
    /// --list`).
    public static func connect(database: KioskDatabase, handshake: PretixHandshake,
                               identity: PretixDeviceIdentity) async throws(PretixSyncError) -> PretixLink {
        let server = handshake.server.absoluteString
        do {
            return try await connect(database: database, server: server, token: handshake.token, event: nil, list: nil, identity: identity)
        } catch .noSuchEvent, .chooseList {
            // Several events or lists: pretix's suggestion, as its own unattended devices follow it.
            guard let record = try PretixLinkFile<PretixDeviceRecord>(database: database).load() else { throw .noDevice }
            let selection: PretixEventSelection
            do {
                selection = try await PretixClient(server: PretixClient.parseServerURL(record.server), device: record.device).eventSelection(currentEvent: nil)
            } catch { throw .pretix(error) }
            guard case .switchTo(let event, _, _, let list) = selection else {
                throw .noSuchEvent("(pretix suggests none for this device now: give --event)", known: [])
            }
            return try await connect(database: database, server: nil, token: nil, event: event, list: list, identity: identity)
        }
    }
}
