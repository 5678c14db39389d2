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
        let client: HubClient
        do {
            client = try makeClient(url)
        } catch {
            await refuseSignIn(error)
            throw error
        }
        let pair: TokenPair
        do {
            pair = try await client.signIn(email: email, password: password)
        } catch {
            switch error {
            case .untrusted(let reason): throw .untrustedHub(reason)
            case .status(401, _, _), .status(403, _, _): throw .badCredentials
            case .status(429, _, let retryAfter):
                // The hub holds this account back after wrong passwords: say how long, not "unreachable".
                let wait = retryAfter.map { "\($0) s" } ?? "a moment"
                throw .refused(status: 429, detail: "Too many wrong passwords for this account: try again in \(wait).")
            case .status(let code, let problem, _) where !error.isTransient:
                throw .refused(status: code, detail: problem.map { Sanitized.text($0.detail ?? $0.title) } ?? "HTTP \(code)")
            default: throw .unreachable(error.summary)
            }
        }
        let name: String
        if let stationName, !stationName.isEmpty {
            name = Sanitized.text(stationName)
            try await mappingStoreErrors { () async throws(StoreError) in try await database.setSetting(.stationName, name) }
        } else {
            name = try mappingStoreErrors { () throws(StoreError) in try database.stationName() }
        }
        let deviceID = database.deviceID
        let secret = try await mappingStoreErrors { () async throws(StoreError) in try await database.deviceSecret() }
        do {
            _ = try await client.registerStation(token: pair.accessToken, name: name, deviceID: deviceID, deviceSecret: secret)
        } catch {
            switch error {
            case .untrusted(let reason): throw .untrustedHub(reason)
            case .status(let code, let problem, _) where !error.isTransient:
                throw .refused(status: code, detail: "station registration: " + (problem.map { Sanitized.text($0.detail ?? $0.title) } ?? "HTTP \(code)"))
            default:
                throw .unreachable(error.summary)
            }
        }
        let session = StationSession(
            hubURL: url.absoluteString, accessToken: pair.accessToken, accessExpiresAt: pair.accessExpiresAt,
            refreshToken: pair.refreshToken, refreshExpiresAt: pair.refreshExpiresAt, sessionID: pair.sessionID,
            staffEmail: pair.staff.email, staffName: Sanitized.text(pair.staff.name), staffRole: pair.staff.role.rawValue,
            transport: transport)
        try await sessionFile.withLock { () throws(SyncError) in try sessionFile.save(session) }
        self.session = session
        self.client = client
        refusal = nil
        monitor.signedIn()
        let staffName = session.staffName
        try await mappingStoreErrors { () async throws(StoreError) in
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
    ///
    /// Changes already recorded keep their event: they upload there whatever is selected. While
    /// any wait for another event, switching needs a choice (as for sign-out): `.wait` uploads
    /// them first, `.keep` keeps them, `.discard` drops them (audited); `nil` refuses.
    public func use(event selector: String, pending choice: PendingChangesChoice? = nil,
                    progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SyncError) -> EventSummary {
        let all = try await events(range: .all)
        guard let event = all.first(where: { $0.id == selector }) ?? all.first(where: { $0.name == selector }) else {
            throw .refused(status: 404, detail: "no event \(Sanitized.text(selector)) for this account: see `kiosk events`")
        }
        if let hub = session?.hubURL {
            let destination = SyncDestination(hubURL: hub, eventID: event.id)
            let elsewhere = try mappingStoreErrors { () throws(StoreError) in try database.outbox.pendingCount(notFor: destination) }
            if elsewhere > 0 {
                let names = try mappingStoreErrors { () throws(StoreError) in try database.outbox.pendingGroups() }
                    .filter { $0.destination != nil && $0.destination != destination }
                    .map { $0.eventName ?? $0.destination?.eventID ?? "" }
                let action = PendingChangesRefusal.Action.switchEvent(from: names.joined(separator: ", "))
                do {
                    _ = try await settlePending(choice, action: action, keeping: destination, progress: progress) { () throws(StoreError) in
                        try database.outbox.pendingCount(notFor: destination)
                    }
                } catch {
                    throw .pendingChanges(error)
                }
            }
        }
        try await mappingStoreErrors { () async throws(StoreError) in
            try await database.selectSyncEvent(id: event.id, name: Sanitized.text(event.name),
                                               toleranceWindowMilliseconds: event.toleranceWindowMilliseconds,
                                               stationUndoMilliseconds: event.stationUndoMilliseconds, endsAt: event.endsAt)
        }
        await publish()
        return event
    }

    /// Ends the session. Pending changes decide (see ``CheckInCore/PendingChangesChoice``; `nil`
    /// refuses while any are pending); tokens are removed from the disk and revoked at the hub
    /// when it answers; the local roster is cleared except with `.keep`.
    /// - Returns: how many pending changes were discarded (`.discard`), else 0.
    public func signOut(_ choice: PendingChangesChoice?, progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(PendingChangesRefusal) -> Int {
        let discarded = try await settlePending(choice, action: .signOut, keeping: nil, progress: progress) { () throws(StoreError) in
            try database.outbox.pendingCount()
        }
        if let session, !session.signedOut, let client {
            // Best effort: an unreachable hub must not keep the station signed in.
            try? await client.signOut(token: session.accessToken, refreshToken: session.refreshToken)
        }
        do {
            try await sessionFile.withLock { () throws(SyncError) in
                if choice == .keep, var kept = session {
                    kept.signedOut = true
                    kept.accessToken = ""
                    kept.refreshToken = ""
                    try sessionFile.save(kept)
                    session = kept
                } else {
                    sessionFile.remove()
                    session = nil
                }
            }
        } catch {
            // The tokens must not stay on the disk when the operator was told "signed out".
            sessionFile.remove()
            session = nil
        }
        if choice != .keep {
            do { try await database.clearSyncedRoster(forgetEvent: true) } catch {
                logger.error("could not clear the roster copy at sign-out", metadata: ["error": "\(error)"])
            }
        }
        client = choice == .keep ? client : nil
        monitor.signedOut()
        await publish()
        return discarded
    }

    /// Applies the operator's choice to the pending changes `count` counts before an action that
    /// needs them settled (sign-out, an event switch).
    /// - Returns: how many were discarded.
    func settlePending(_ choice: PendingChangesChoice?, action: PendingChangesRefusal.Action, keeping: SyncDestination?,
                       progress: (@Sendable (SyncProgress) -> Void)?,
                       count: () throws(StoreError) -> Int) async throws(PendingChangesRefusal) -> Int {
        var pending = (try? count()) ?? 0
        guard pending > 0 else { return 0 }
        switch choice {
        case nil:
            throw PendingChangesRefusal(pending: pending, action: action, reason: nil)
        case .keep:
            return 0
        case .discard:
            do {
                let discarded = try await database.outbox.discardPending(operatorName: session?.staffName ?? "kiosk", keeping: keeping,
                                                                  reason: action.auditReason)
                logger.warning("discarded unsynced changes", metadata: ["count": "\(discarded)", "reason": "\(action.auditReason)"])
                return discarded
            } catch {
                throw PendingChangesRefusal(pending: pending, action: action, reason: error.description)
            }
        case .wait:
            // Upload until none is left; network trouble is waited out, but changes that no sync
            // settles (held for a wrong clock, or for another hub) are named instead of waited for.
            var stalled = 0
            while pending > 0 {
                do {
                    try await syncNow(progress: progress)
                } catch {
                    switch error {
                    case .unreachable:
                        try? await Task.sleep(for: delayAfterFailure(error))
                    default:
                        throw PendingChangesRefusal(pending: pending, action: action, reason: error.description)
                    }
                }
                if Task.isCancelled { throw PendingChangesRefusal(pending: pending, action: action, reason: "interrupted") }
                let left = (try? count()) ?? 0
                stalled = left < pending ? 0 : stalled + 1
                pending = left
                // An "unknown code" needs up to four pulls before it is final.
                if pending > 0 && stalled >= OutboxHold.maximumUnknownAnswers + 1 {
                    throw PendingChangesRefusal(pending: pending, action: action,
                                                reason: "they cannot be uploaded now: held for a wrong clock, or recorded for another hub")
                }
            }
            return 0
        }
    }
}

/// Sign-out or an event switch refused: changes are still pending (and, with `.wait`, why they
/// could not be uploaded).
public struct PendingChangesRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var pending: Int
    public var action: Action
    public var reason: String?

    public enum Action: Sendable, Equatable {
        case signOut
        /// Switching events; `from` names the events the changes belong to.
        case switchEvent(from: String)

        var auditReason: String {
            switch self {
            case .signOut: "at sign-out"
            case .switchEvent(let from): "at a switch away from \(from)"
            }
        }
    }

    public init(pending: Int, action: Action = .signOut, reason: String?) {
        self.pending = pending
        self.action = action
        self.reason = reason
    }

    public var description: String {
        switch action {
        case .signOut:
            let count = pending == 1 ? "1 check-in hasn't synced" : "\(pending) check-ins haven't synced"
            if let reason { return "\(count) (\(reason)). Nothing was signed out." }
            return "\(count). Use --wait to sync them first, --keep to sign out and keep them for the next sign-in, or --discard to drop them (logged)."
        case .switchEvent(let from):
            let count = pending == 1 ? "1 change is waiting for \(from)" : "\(pending) changes are waiting for \(from)"
            if let reason { return "\(count) (\(reason)). The event was not changed." }
            return "\(count). Use --wait to upload them first, --keep to keep them (they still go to \(from)), or --discard to drop them (logged)."
        }
    }
}
