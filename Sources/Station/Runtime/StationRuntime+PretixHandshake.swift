import CheckInCore
import Foundation
import KioskStore
import Logging
import OperatorConsole
import PretixClient
import PretixSync
import RosterSync

/// A pretix device QR code scanned at the station: the station becomes that pretix device
/// without the command line (`kiosk pretix connect` does the same with the address and token).
extension StationRuntime {
    /// Takes `code` when it is a pretix handshake (`{"handshake_version": 1, "url", "token"}`):
    /// it is never checked in. - Returns: whether it was one.
    nonisolated func takeHandshake(_ code: String) -> Bool {
        guard code.first == "{", let handshake = try? PretixHandshake(scanned: code) else { return false }
        Task { await connectPretix(handshake) }
        return true
    }

    /// Connects to pretix with a scanned handshake, on a station that has no source yet: not a
    /// pretix device already, not signed in to a hub. The device's only event and list are
    /// taken; with several, the console lists them to choose from (pretix's suggestion chosen
    /// first: ``usePretixList(_:answer:)`` takes the choice), and a headless station takes the
    /// ones pretix suggests. Their orders download with progress on the set-up screen (resuming
    /// while pretix is away), and the station syncs with pretix from then on.
    func connectPretix(_ handshake: PretixHandshake) async {
        // The same code read again while it is being taken: once is enough.
        guard !connectingPretix else { return }
        connectingPretix = true
        defer { connectingPretix = false }
        let server = Sanitized.text(handshake.server.absoluteString)
        if let pretix {
            emit(.notice("This station is already a pretix device of \(Sanitized.text(pretix.link.server)): a device QR code is taken "
                         + "on a station being set up (kiosk pretix disconnect first).", action: "pretix_connect"))
            return
        }
        if let session = await sync?.currentSession(), !session.signedOut {
            emit(.notice("This station is signed in to the hub \(Sanitized.text(session.hubURL)): sign out first (F8), then scan the pretix "
                         + "device QR code again.", action: "pretix_connect"))
            return
        }
        emit(.setup(.pretixConnecting(server: server)))
        logger.notice("connecting to pretix with a scanned device QR code", metadata: ["server": "\(server)"])
        let outcome: PretixHandshakeOutcome
        do throws(PretixSyncError) {
            outcome = try await PretixSync.connect(database: database, handshake: handshake, identity: .thisStation, choosing: attended)
        } catch {
            logger.warning("pretix did not take the station as a device", metadata: ["reason": "\(error.description)"])
            emit(.setup(.pretixRefused("pretix did not connect this station: \(error.description)")))
            return
        }
        switch outcome {
        case .connected(let link):
            await download(link)
        case .choose(let lists, let suggested):
            pretixChoices = Dictionary(lists.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let now = Timestamp.now()
            emit(.setup(.pretixLists(server: server, lists: lists.map { Self.choice($0, now: now) }, suggested: suggested?.id)))
        }
    }

    /// Connects to the pretix list chosen on the console after a device QR code, then downloads
    /// its orders. A choice pretix refuses (unreachable, the list gone) goes back to the list.
    public func usePretixList(_ choice: EventChoice, answer: @escaping @Sendable (SetupAnswer) -> Void) async {
        guard pretix == nil, !connectingPretix else { return }
        guard let chosen = pretixChoices[choice.id] else {
            answer(.eventRefused("That list is not offered any more: scan the pretix device QR code again."))
            return
        }
        connectingPretix = true
        defer { connectingPretix = false }
        let link: PretixLink
        do throws(PretixSyncError) {
            link = try await PretixSync.connect(database: database, choice: chosen, identity: .thisStation)
        } catch {
            logger.warning("pretix list not chosen", metadata: ["list": "\(chosen.list)", "reason": "\(error.description)"])
            answer(.eventRefused("pretix did not connect this list: \(error.description)"))
            return
        }
        pretixChoices = [:]
        await download(link)
    }

    /// The chosen list's orders, downloaded with progress until complete; then the station is
    /// that list's pretix device.
    private func download(_ link: PretixLink) async {
        let pretix = PretixSync(database: database, link: link)
        let name = Sanitized.text("\(link.eventName) – \(link.listName)")
        var failures = 0
        while !Task.isCancelled {
            do throws(PretixSyncError) {
                _ = try await pretix.pull { [weak self] done, total in self?.emit(.setup(.downloading(event: name, done: done, total: total))) }
                break
            } catch {
                failures += 1
                emit(.setup(.downloadPaused(event: name, problem: error.description)))
                try? await Task.sleep(for: Self.setupRetry.delay(afterFailures: failures))
            }
        }
        database.searchIndex.indexInBackground()
        becomePretixStation(pretix)
        logger.notice("connected to pretix", metadata: ["event": "\(link.event)", "list": "\(link.list)"])
        emit(.setup(.rosterReady(event: name, guests: (try? database.status(consumeNotice: false).guests) ?? 0)))
        await publishSyncState()
    }

    /// The list as the console's picker shows it: the list first (what tells doors apart; a
    /// narrow screen cuts the event's name), its event, the event's dates, whether it is on now.
    static func choice(_ list: PretixListChoice, now: Timestamp) -> EventChoice {
        EventChoice(id: list.id, name: Sanitized.text("\(list.listName) · \(list.eventName)"),
                    when: when(startsAt: list.startsAt, endsAt: list.endsAt, timeZone: list.timeZone),
                    phase: .of(startsAt: list.startsAt, endsAt: list.endsAt, now: now))
    }
}
