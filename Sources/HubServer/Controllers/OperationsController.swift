import HubAPI
import Hummingbird
import NIOCore

/// Liveness (open) and Prometheus metrics (support and organizers).
struct OperationsController {
    let hub: HubRoutes

    func addHealth(to group: RouterGroup<HubRequestContext>) {
        group.get(RouterPath(HubPaths.health), use: hub.wrap("health") { _, _ in
            let schema = try await hub.store.schemaVersion()
            return try hub.json(HealthResponse(status: "ok", schema: schema, database: hub.store.kind))
        })
    }

    func addMetrics(to group: RouterGroup<HubRequestContext>) {
        group.get(RouterPath(HubPaths.metrics), use: hub.wrap("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: hub.metrics.render(feed: hub.feed, connections: hub.connections))))
        })
    }
}
