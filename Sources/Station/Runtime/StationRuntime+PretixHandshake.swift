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
    /// pretix device already, not signed in to a hub. The device's only event and list, or the
    /// ones pretix suggests for it now, are chosen; their orders download with progress on the
    /// set-up screen (resuming while pretix is away), and the station syncs with pretix from then on.
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
        let link: PretixLink
        do throws(PretixSyncError) {
            link = try await PretixSync.connect(database: database, handshake: handshake, identity: .thisStation)
        } catch {
            logger.warning("pretix did not take the station as a device", metadata: ["reason": "\(error.description)"])
            emit(.setup(.pretixRefused("pretix did not connect this station: \(error.description)")))
            return
        }
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
}
