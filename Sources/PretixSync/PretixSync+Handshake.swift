import Foundation
import KioskStore
import PretixClient

extension PretixSync {
    /// Makes this station the pretix device of a scanned handshake (the QR code pretix shows
    /// when the organizer connects a device): the device's only event and list, else, with
    /// someone to choose (`choosing`, the console), the device's lists to choose from
    /// (``connect(database:choice:)`` takes the choice); with no one, the event and list pretix
    /// suggests for it now (`device/eventselection`: the event running or next, the first list of
    /// the device's gate), as pretix's own unattended devices do. The token is spent by the first
    /// step: a choice made after it needs no new one (`kiosk pretix connect --event --list`).
    public static func connect(database: KioskDatabase, handshake: PretixHandshake, identity: PretixDeviceIdentity,
                               choosing: Bool = false) async throws(PretixSyncError) -> PretixHandshakeOutcome {
        let server = handshake.server.absoluteString
        do {
            return .connected(try await connect(database: database, server: server, token: handshake.token, event: nil, list: nil, identity: identity))
        } catch .noSuchEvent, .chooseList {
            guard let record = try PretixLinkFile<PretixDeviceRecord>(database: database).load() else { throw .noDevice }
            let client: PretixClient
            do { client = try PretixClient(server: PretixClient.parseServerURL(record.server), device: record.device) } catch { throw .pretix(error) }
            let selection: PretixEventSelection
            do { selection = try await client.eventSelection(currentEvent: nil) } catch { throw .pretix(error) }
            let suggested: (event: String, list: Int?)? = if case .switchTo(let event, _, _, let list) = selection { (event, list) } else { nil }
            if choosing {
                let lists = try await choices(client)
                return .choose(lists, suggested: suggested.flatMap { suggested in
                    lists.first { $0.event == suggested.event && (suggested.list == nil || $0.list == suggested.list) }
                })
            }
            guard let suggested else { throw .noSuchEvent("(pretix suggests none for this device now: give --event)", known: []) }
            return .connected(try await connect(database: database, server: nil, token: nil, event: suggested.event, list: suggested.list,
                                                identity: identity))
        }
    }

    /// Connects the device this station already is to the list chosen on the console.
    public static func connect(database: KioskDatabase, choice: PretixListChoice,
                               identity: PretixDeviceIdentity) async throws(PretixSyncError) -> PretixLink {
        try await connect(database: database, server: nil, token: nil, event: choice.event, list: choice.list, identity: identity)
    }

    /// Every check-in list of every event the device may use, events in pretix's order.
    static func choices(_ client: PretixClient) async throws(PretixSyncError) -> [PretixListChoice] {
        do {
            var choices: [PretixListChoice] = []
            for event in try await client.events() {
                choices += try await client.checkInLists(event: event.slug).map { PretixListChoice(event: event, list: $0) }
            }
            return choices
        } catch { throw .pretix(error) }
    }
}
