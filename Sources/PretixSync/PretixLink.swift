import CheckInCore
import Foundation
import KioskStore
import PretixClient

/// What ties this station to one pretix check-in list: the server, the device pretix made of
/// the station (its API token included), the event and the list. Kept sealed beside the store
/// (``PretixLinkFile``), like the hub session.
public struct PretixLink: Sendable, Hashable, Codable {
    /// pretix's address as the organizer gave it (`https://tickets.example.org/`).
    public var server: String
    public var device: PretixDevice
    public var event: String
    public var eventName: String
    public var list: Int
    public var listName: String
    /// What pretix was last told about this station (`device/initialize` or `device/update`);
    /// `nil` when not known (a link kept by an earlier version): pretix is told again.
    public var identity: PretixDeviceIdentity?
    /// Whose word the door takes first; `nil` (a link kept by an earlier version): local first.
    public var mode: PretixDecisionMode?
    /// How long an online-first scan waits for pretix before the station decides; `nil`: 1 s.
    public var onlineBudgetMilliseconds: Int?
    /// What only pretix decides at this list, as last read from pretix; `nil` when not known
    /// yet (a link kept by an earlier version): the first pull reads it.
    public var onlineNeeds: PretixOnlineNeeds?
    /// The list's check-in rules with the event's time zone and dates, decided at the door
    /// offline; `nil` for a list without rules (or not read yet).
    public var listRules: PretixListRules?
    /// The questions asked at the door before an entry, by pretix product (pretix: "ask during
    /// check-in"); `nil` when not read yet.
    public var doorQuestions: [Int: [DoorQuestion]]?

    /// How many questions the door may ask, whatever the product (a question of several products counts once).
    public var doorQuestionCount: Int { Set((doorQuestions ?? [:]).values.flatMap { $0.map(\.id) }).count }

    /// How long a scan waits for pretix's word before the station decides (or, where only pretix
    /// decides, refuses): 1 s unless set (`kiosk pretix connect --online-budget-ms`).
    public var onlineBudget: Duration { .milliseconds(max(100, min(onlineBudgetMilliseconds ?? 1_000, 10_000))) }

    /// How long an entry only pretix decides (a list's rules it cannot evaluate here) waits for its
    /// word: the budget, but at least 5 s. The other answer is a refusal, so a slow pretix is
    /// waited for longer than where the station decides itself after the budget; a pretix that
    /// is down (refused connection) answers at once either way.
    public var onlineOnlyBudget: Duration { max(onlineBudget, .seconds(5)) }

    public init(server: String, device: PretixDevice, event: String, eventName: String, list: Int, listName: String,
                identity: PretixDeviceIdentity? = nil) {
        self.identity = identity
        self.server = server
        self.device = device
        self.event = event
        self.eventName = eventName
        self.list = list
        self.listName = listName
    }

    /// Where the station's queued changes for this list go: the outbox's destination. Never a
    /// hub address (`pretix+` in front), so the hub's sync never takes them.
    public var destination: SyncDestination { .pretix(server: server, eventID: eventID) }

    /// The station's id of the event: one per check-in list (a list is pretix's door).
    public var eventID: String { "\(event)#\(list)" }

    func client(timeout: Duration = .seconds(10)) throws(PretixError) -> PretixClient {
        try PretixClient(server: PretixClient.parseServerURL(server), device: device, timeout: timeout)
    }
}

/// The device pretix made of this station, kept from the moment pretix answered the token:
/// a token works once, so choosing the event or list again (a typo, another door) needs none.
public struct PretixDeviceRecord: Sendable, Hashable, Codable {
    public var server: String
    public var device: PretixDevice

    public init(server: String, device: PretixDevice) {
        self.server = server
        self.device = device
    }
}

/// A sealed JSON file in the data directory (``SealedFile``): the station's ``PretixLink``
/// (`pretix.json`) or its ``PretixDeviceRecord`` (`pretix-device.json`). Readable only with the
/// store's key.
public struct PretixLinkFile<Contents: Codable & Sendable>: Sendable {
    let file: SealedFile
    public var url: URL { file.url }

    init(database: KioskDatabase, name: String) {
        file = SealedFile(database.dataDirectory.appendingPathComponent(name), sealer: database)
    }

    /// Whether the file is there, readable or not (a station with one is a pretix station).
    public var exists: Bool { file.exists }

    /// The contents, or `nil` when there is no such file.
    public func load() throws(PretixSyncError) -> Contents? {
        let opened: Data
        do { guard let read = try file.read() else { return nil }; opened = read } catch { throw .linkUnreadable(path: url.path, reason: error.reason) }
        do { return try JSONDecoder().decode(Contents.self, from: opened) } catch {
            throw .linkUnreadable(path: url.path, reason: "it does not hold a pretix connection this version understands")
        }
    }

    public func save(_ contents: Contents) throws(PretixSyncError) {
        let data: Data
        do { data = try JSONEncoder().encode(contents) } catch { throw .linkUnwritable(path: url.path, reason: String(describing: error)) }
        do { try file.write(data) } catch { throw .linkUnwritable(path: url.path, reason: error.reason) }
    }

    public func remove() {
        file.remove()
    }
}

extension PretixLinkFile where Contents == PretixLink {
    /// The station's link to its pretix check-in list: `kiosk run` syncs with pretix when it is there.
    public init(database: KioskDatabase) { self.init(database: database, name: "pretix.json") }
}

extension PretixLinkFile where Contents == PretixDeviceRecord {
    public init(database: KioskDatabase) { self.init(database: database, name: "pretix-device.json") }
}
