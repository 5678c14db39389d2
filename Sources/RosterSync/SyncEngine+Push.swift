import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging

extension SyncEngine {
    /// Uploads the outbox in scan-time order until it is empty. Consecutive entries of one kind
    /// go in one batch (a walk-in sorts just before its own check-in, so the hub learns the guest
    /// first). A batch the hub refuses as a whole (400/409/413/422) is retried one entry at a
    /// time, so one bad entry is marked rejected with the hub's reason and the rest go through.
    func push(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws(SyncError) {
        guard let event = try storage({ () throws(StoreError) in try database.syncEvent() }) else { throw .noEvent }
        let eventID = event.eventID
        var batchLimit = configuration.uploadBatchSize
        var settled = 0
        while true {
            let entries = try storage { () throws(StoreError) in try database.pendingOutbox(limit: batchLimit) }
            guard let first = entries.first else { break }
            let run = Array(entries.prefix { $0.kind == first.kind })
            var outcomes: [(id: Int64, outcome: OutboxOutcome)] = []
            var sendable: [OutboxEntry] = []
            for entry in run {
                if entry.kind != "checkin" && entry.kind != "walkin" && entry.kind != "undo" {
                    outcomes.append((entry.id, .rejected(reason: "unknown outbox kind \(entry.kind)", previous: nil)))
                } else {
                    sendable.append(entry)
                }
            }
            do {
                outcomes += try await upload(sendable, kind: first.kind, eventID: eventID)
                batchLimit = configuration.uploadBatchSize
            } catch .refused(let status, let detail) where [400, 409, 413, 422].contains(status) {
                if sendable.count > 1 {
                    batchLimit = 1
                    continue
                }
                outcomes += sendable.map { ($0.id, .rejected(reason: "hub refused (\(status)): \(detail)", previous: nil)) }
            } catch {
                if case .unreachable(let reason) = error {
                    try? await database.applyOutboxOutcomes(sendable.map { ($0.id, .retry(reason: reason)) })
                }
                throw error
            }
            do {
                try await database.applyOutboxOutcomes(outcomes)
            } catch {
                throw .storage(error.description)
            }
            for (_, outcome) in outcomes {
                switch outcome {
                case .accepted: report.accepted += 1
                case .duplicate: report.duplicates += 1
                case .rejected: report.rejected += 1
                case .retry: break
                }
            }
            settled += outcomes.count
            progress?(.upload(done: settled, pending: (try? database.pendingCount()) ?? 0))
            await publish()
        }
    }

    /// Sends one batch of one kind; returns one outcome per entry (entries whose payload cannot
    /// be read are rejected locally, never sent or retried).
    func upload(_ entries: [OutboxEntry], kind: String, eventID: String) async throws(SyncError) -> [(id: Int64, outcome: OutboxOutcome)] {
        var outcomes: [(id: Int64, outcome: OutboxOutcome)] = []
        var sent: [OutboxEntry] = []
        switch kind {
        case "checkin":
            var items: [CheckInUpload] = []
            for entry in entries {
                do { items.append(try OutboxUploads.checkIn(entry)); sent.append(entry) } catch {
                    outcomes.append((entry.id, .rejected(reason: error.reason, previous: nil)))
                }
            }
            guard !items.isEmpty else { return outcomes }
            let batch = CheckInBatch(items: items)
            let answer = try await authorized { client, token in try await client.upload(token: token, event: eventID, checkIns: batch) }
            try check(answer.results.count, items.count)
            for (index, result) in answer.results.enumerated() {
                guard result.key == items[index].key else {
                    monitor.failed()
                    throw .unreachable("unexpected answer: results out of order")
                }
                outcomes.append((sent[index].id, OutboxUploads.outcome(result)))
            }
        case "walkin":
            var items: [WalkInUpload] = []
            for entry in entries {
                do { items.append(try OutboxUploads.walkIn(entry)); sent.append(entry) } catch {
                    outcomes.append((entry.id, .rejected(reason: error.reason, previous: nil)))
                }
            }
            guard !items.isEmpty else { return outcomes }
            let batch = WalkInBatch(items: items)
            let answer = try await authorized { client, token in try await client.upload(token: token, event: eventID, walkIns: batch) }
            try check(answer.results.count, items.count)
            for (index, result) in answer.results.enumerated() {
                outcomes.append((sent[index].id, OutboxUploads.outcome(result)))
            }
        default:
            let station = (try? database.stationName()) ?? "Station"
            var items: [UndoUpload] = []
            for entry in entries {
                do { items.append(try OutboxUploads.undo(entry, station: station)); sent.append(entry) } catch {
                    outcomes.append((entry.id, .rejected(reason: error.reason, previous: nil)))
                }
            }
            guard !items.isEmpty else { return outcomes }
            let batch = UndoBatch(items: items)
            let answer = try await authorized { client, token in try await client.upload(token: token, event: eventID, undos: batch) }
            try check(answer.results.count, items.count)
            for (index, result) in answer.results.enumerated() {
                outcomes.append((sent[index].id, OutboxUploads.outcome(result)))
            }
        }
        return outcomes
    }

    /// An answer with the wrong number of results is garbage: counted as a failure, retried later.
    func check(_ answered: Int, _ sent: Int) throws(SyncError) {
        guard answered == sent else {
            monitor.failed()
            throw .unreachable("unexpected answer: \(answered) results for \(sent) items")
        }
    }
}
