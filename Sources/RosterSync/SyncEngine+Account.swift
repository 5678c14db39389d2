import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Signs in to the hub, registers this station (its own device id, so idempotency keys of
    /// check-ins recorded before stay valid), and saves the session (mode 0600). Pending changes
    /// kept from an earlier session sync on the next ``syncNow(progress:)``.
    /// - Parameter stationName: the station's name at the hub ("Door 2"); the stored one when `nil`.
    public func signIn(hubURL: String, email: String, password: String, stationName: String?) async throws(SyncError) -> StationSession {
        let url = try HubClient.parseHubURL(hubURL)
        let client = HubClient(baseURL: url, timeout: configuration.requestTimeout)
        let pair: TokenPair
        do {
            pair = try await client.signIn(email: email, password: password)
        } catch {
            switch error {
            case .status(401, _, _), .status(403, _, _): throw .badCredentials
            case .status(let code, let problem, _) where !error.isTransient:
                throw .refused(status: code, detail: problem.map { Sanitized.text($0.detail ?? $0.title) } ?? "HTTP \(code)")
            default: throw .unreachable(error.summary)
            }
        }
        let name: String
        if let stationName, !stationName.isEmpty {
            name = Sanitized.text(stationName)
            try await storeCall { () async throws(StoreError) in try await database.setSetting(.stationName, name) }
        } else {
            name = try storage { () throws(StoreError) in try database.stationName() }
        }
        let deviceID = database.deviceID
        do {
            _ = try await client.registerStation(token: pair.accessToken, name: name, deviceID: deviceID)
        } catch {
            throw error.isTransient ? .unreachable(error.summary) : .refused(status: 0, detail: "station registration: \(error.summary)")
        }
        let session = StationSession(
            hubURL: url.absoluteString, accessToken: pair.accessToken, accessExpiresAt: pair.accessExpiresAt,
            refreshToken: pair.refreshToken, refreshExpiresAt: pair.refreshExpiresAt, sessionID: pair.sessionID,
            staffEmail: pair.staff.email, staffName: Sanitized.text(pair.staff.name), staffRole: pair.staff.role.rawValue)
        try sessionFile.save(session)
        self.session = session
        self.client = client
        monitor.signedIn()
        let staffName = session.staffName
        try await storeCall { () async throws(StoreError) in
            try await database.setSetting(.hubURL, url.absoluteString)
            try await database.setSetting(.operatorName, staffName)
        }
        await publish()
        return session
    }

    /// The events the signed-in staff member may access.
    public func events(range: EventRange = .all) async throws(SyncError) -> [EventSummary] {
        try await authorized { client, token in try await client.events(token: token, range: range) }.events
    }

    /// Selects the event to sync (by id, or by exact name); another event than the current one
    /// replaces the local roster on the next sync.
    public func use(event selector: String) async throws(SyncError) -> EventSummary {
        let all = try await events(range: .all)
        guard let event = all.first(where: { $0.id == selector }) ?? all.first(where: { $0.name == selector }) else {
            throw .refused(status: 404, detail: "no event \(Sanitized.text(selector)) for this account: see `kiosk events`")
        }
        try await storeCall { () async throws(StoreError) in
            try await database.selectSyncEvent(id: event.id, name: Sanitized.text(event.name),
                                               toleranceWindowMilliseconds: event.toleranceWindowMilliseconds)
        }
        await publish()
        return event
    }

    /// Ends the session. Pending changes decide (see ``SignOutMode``); tokens are removed from
    /// the disk and revoked at the hub when it answers; the local roster is cleared except with
    /// `.keep`.
    /// - Returns: how many pending changes were discarded (`.discard`), else 0.
    public func signOut(_ mode: SignOutMode, progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SignOutRefusal) -> Int {
        var pending = (try? database.pendingCount()) ?? 0
        if pending > 0 && mode == .wait {
            var failures = 0
            while pending > 0 {
                do {
                    try await syncNow(progress: progress)
                    failures = 0
                } catch {
                    switch error {
                    case .unreachable:
                        failures += 1
                        try? await Task.sleep(for: delayAfterFailure(error))
                    default:
                        throw SignOutRefusal(pending: pending, reason: error.description)
                    }
                    if Task.isCancelled { throw SignOutRefusal(pending: pending, reason: "interrupted") }
                }
                pending = (try? database.pendingCount()) ?? 0
            }
        }
        var discarded = 0
        switch mode {
        case .refuseIfPending, .wait:
            if pending > 0 { throw SignOutRefusal(pending: pending, reason: nil) }
        case .discard:
            do { discarded = try await database.discardPending(operatorName: session?.staffName ?? "kiosk") } catch {
                throw SignOutRefusal(pending: pending, reason: error.description)
            }
            logger.warning("discarded unsynced changes at sign-out", metadata: ["count": "\(discarded)"])
        case .keep:
            break
        }
        if let session, !session.signedOut, let client {
            // Best effort: an unreachable hub must not keep the station signed in.
            try? await client.signOut(token: session.accessToken, refreshToken: session.refreshToken)
        }
        if mode == .keep, var kept = session {
            kept.signedOut = true
            kept.accessToken = ""
            kept.refreshToken = ""
            try? sessionFile.save(kept)
            session = kept
        } else {
            sessionFile.remove()
            session = nil
            try? await database.clearSyncedRoster(forgetEvent: true)
        }
        client = mode == .keep ? client : nil
        monitor.signedOut()
        await publish()
        return discarded
    }

    func storeCall(_ body: () async throws(StoreError) -> Void) async throws(SyncError) {
        do { try await body() } catch { throw .storage(error.description) }
    }
}

/// `kiosk signout` refused: changes are still pending (and, with `--wait`, why they could not sync).
public struct SignOutRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var pending: Int
    public var reason: String?

    public var description: String {
        let count = pending == 1 ? "1 check-in hasn't synced" : "\(pending) check-ins haven't synced"
        if let reason { return "\(count) (\(reason)). Nothing was signed out." }
        return "\(count). Use --wait to sync them first, --keep to sign out and keep them for the next sign-in, or --discard to drop them (logged)."
    }
}
