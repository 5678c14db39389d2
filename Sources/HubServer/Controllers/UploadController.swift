import CheckInCore
import HubAPI
import Hummingbird

/// What stations upload: check-ins, walk-ins and undos, each a batch decided in order.
struct UploadController {
    let hub: HubRoutes
    let sync: any SyncRepository

    func add(to group: RouterGroup<HubRequestContext>) {
        group.post("check-ins", use: hub.wrap("check-ins") { request, context in
            let session = try context.requireCaller(), event = try context.requireEvent()
            let batch = try await hub.body(CheckInBatch.self, request)
            try hub.checkBatchSize(batch.items.count)
            try UploadValidation.checkIns(batch.items)
            try DeviceAuthorization.require(session, devices: batch.items.enumerated().map { ("items.\($0.offset).key.deviceID", $0.element.key.deviceID) })
            let now = Timestamp.now()
            try UploadValidation.plausibleTimes(batch.items.enumerated().map { ("items.\($0.offset).key.scannedAt", $0.element.key.scannedAt) }, now: now)
            let results = try await sync.ingest(event: event, items: batch.items, uploader: Uploader(session), now: now)
            for status in UploadStatus.allCases {
                let count = results.count { $0.status == status }
                if count > 0 { hub.metrics.checkIns(status.rawValue, count: count) }
            }
            return try hub.json(CheckInBatchResult(results: results))
        })
        group.post("walk-ins", use: hub.wrap("walk-ins") { request, context in
            let session = try context.requireCaller(), event = try context.requireEvent()
            let batch = try await hub.body(WalkInBatch.self, request)
            try hub.checkBatchSize(batch.items.count)
            try UploadValidation.walkIns(batch.items)
            try DeviceAuthorization.require(session, devices: batch.items.enumerated().map { ("items.\($0.offset).deviceID", $0.element.deviceID) })
            let now = Timestamp.now()
            try UploadValidation.plausibleTimes(batch.items.enumerated().map { ("items.\($0.offset).createdAt", $0.element.createdAt) }, now: now)
            return try hub.json(WalkInBatchResult(results: try await sync.ingestWalkIns(event: event, items: batch.items, uploader: Uploader(session), now: now)))
        })
        group.post("undos", use: hub.wrap("undos") { request, context in
            let session = try context.requireCaller(), event = try context.requireEvent()
            let batch = try await hub.body(UndoBatch.self, request)
            try hub.checkBatchSize(batch.items.count)
            try UploadValidation.undos(batch.items)
            // An undo names another check-in's key; who may undo it is UndoPolicy's, per item,
            // with the device whose registration this session holds.
            try DeviceAuthorization.require(session, devices: [])
            let now = Timestamp.now()
            try UploadValidation.plausibleTimes(batch.items.enumerated().map { ("items.\($0.offset).undoneAt", $0.element.undoneAt) }, now: now)
            return try hub.json(UndoBatchResult(results: try await sync.undo(event: event, items: batch.items, caller: Uploader(session), now: now)))
        })
    }
}
