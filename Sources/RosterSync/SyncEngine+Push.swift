import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Uploads every pending change recorded for this session's hub, each to the event it was
    /// recorded for (never to the event selected now), oldest event first. Changes for another
    /// hub wait for a sign-in there; held changes wait for the next pull.
    func push(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        guard let hub = session?.hubURL else { throw .notSignedIn }
        let destinations = try await mappingStoreErrors { () async throws(StoreError) in try await database.outbox.uploadDestinations(hubURL: hub) }
        var settled = 0
        for destination in destinations {
            do {
                try await push(to: destination, into: &report, settled: &settled, progress: progress)
            } catch .refused(let status, let detail) where status == 403 || status == 404 {
                // This account may not upload to that event (or it is gone): its changes wait,
                // the other events' changes still go.
                report.waiting.append(SyncReport.Waiting(eventID: destination.eventID, reason: "HTTP \(status): \(detail)"))
            }
        }
    }

    /// Uploads the changes of one destination in scan-time order until none is ready.
    /// Consecutive changes of one kind go in one batch (a walk-in sorts just before its own
    /// check-in, so the hub learns the guest first). A batch the hub refuses as a whole
    /// (400/409/413/422) is retried one change at a time, so one bad change is marked with the
    /// hub's reason and the rest go through; a refused time is held, never dropped.
    func push(to destination: SyncDestination, into report: inout SyncReport, settled: inout Int,
              progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        var batchLimit = configuration.uploadBatchSize
        while true {
            let entries = try await mappingStoreErrors { () async throws(StoreError) in
                try await database.outbox.uploadableOutbox(for: destination, limit: batchLimit)
            }
            guard let first = entries.first else { break }
            let run = entries.prefix { $0.kind == first.kind }
            var results: [OutboxResult] = []
            var sendable: [(id: Int64, change: OutboxChange)] = []
            for entry in run {
                switch entry.change {
                case .success(let change): sendable.append((entry.id, change))
                case .failure(let unreadable): results.append(OutboxResult(id: entry.id, outcome: .rejected(reason: unreadable.reason, previous: nil)))
                }
            }
            do {
                let started = ContinuousClock.now
                let answered = try await upload(sendable, eventID: destination.eventID)
                results += answered
                logger.debug("uploaded", metadata: ["changes": "\(sendable.map(\.id))", "event": "\(destination.eventID)",
                                                     "answers": "\(answered.map(\.outcome))", "took": "\(ContinuousClock.now - started)"])
                batchLimit = configuration.uploadBatchSize
            } catch {
                switch error {
                case .implausibleTime(let detail) where sendable.count <= 1:
                    results += sendable.map { OutboxResult(id: $0.id, outcome: .implausibleTime(reason: detail)) }
                case .refused(let status, let detail) where [400, 409, 413, 422].contains(status) && sendable.count <= 1:
                    results += sendable.map { OutboxResult(id: $0.id, outcome: .rejected(reason: "hub refused (\(status)): \(detail)", previous: nil)) }
                case .implausibleTime, .refused(400, _), .refused(409, _), .refused(413, _), .refused(422, _):
                    // Find the one the hub objects to: the others go through one by one.
                    batchLimit = 1
                    continue
                case .unreachable(let reason):
                    try? await database.outbox.applyOutboxOutcomes(sendable.map { OutboxResult(id: $0.id, outcome: .retry(reason: reason)) })
                    throw error
                default:
                    throw error
                }
            }
            try await mappingStoreErrors { () async throws(StoreError) in try await database.outbox.applyOutboxOutcomes(results) }
            for result in results {
                switch result.outcome {
                case .accepted: report.accepted += 1
                case .duplicate: report.duplicates += 1
                case .rejected: report.rejected += 1
                case .unknownCode, .implausibleTime: report.held += 1
                case .retry: break
                }
            }
            settled += results.count
            progress?(.upload(done: settled, pending: (try? database.outbox.pendingCount()) ?? 0))
            await publish()
        }
    }

    /// Sends one batch of one kind to the event; returns one result per change, in order.
    func upload(_ changes: [(id: Int64, change: OutboxChange)], eventID: String) async throws(SyncError) -> [OutboxResult] {
        guard let first = changes.first else { return [] }
        let ids = changes.map(\.id)
        switch first.change {
        case .checkIn:
            let items = changes.compactMap { if case .checkIn(let checkIn) = $0.change { checkIn } else { nil } }
            let answer = try await authorized { client, token in try await client.upload(token: token, event: eventID, checkIns: CheckInBatch(items: items)) }
            try check(answer.results.count, items.count)
            for (index, result) in answer.results.enumerated() where result.key != items[index].key {
                monitor.failed()
                throw .unreachable("unexpected answer: results out of order")
            }
            return zip(ids, answer.results).map { OutboxResult(id: $0, outcome: OutboxUploads.outcome($1)) }
        case .walkIn:
            let items = changes.compactMap { if case .walkIn(let walkIn) = $0.change { walkIn } else { nil } }
            let answer = try await authorized { client, token in try await client.upload(token: token, event: eventID, walkIns: WalkInBatch(items: items)) }
            try check(answer.results.count, items.count)
            return zip(ids, answer.results).map { OutboxResult(id: $0, outcome: OutboxUploads.outcome($1)) }
        case .undo:
            let items = changes.compactMap { if case .undo(let undo) = $0.change { undo } else { nil } }
            let answer = try await authorized { client, token in try await client.upload(token: token, event: eventID, undos: UndoBatch(items: items)) }
            try check(answer.results.count, items.count)
            return zip(ids, answer.results).map { OutboxResult(id: $0, outcome: OutboxUploads.outcome($1)) }
        case .refusal, .badgePrinted:
            // Only a pretix list's changes hold these; one here was never the hub's to take.
            return ids.map { OutboxResult(id: $0, outcome: .rejected(reason: "a \(first.change.kind.rawValue) change is not the hub's to record", previous: nil)) }
        }
    }

    /// An answer with the wrong number of results is garbage: counted as a failure, retried later.
    func check(_ answered: Int, _ sent: Int) throws(SyncError) {
        guard answered == sent else {
            monitor.failed()
            throw .unreachable("unexpected answer: \(answered) results for \(sent) items")
        }
    }
}
