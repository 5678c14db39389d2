import PretixClient

/// One page of an event's orders, asked for ahead of when it is needed (``PretixSync/pull(progress:)``
/// stores a page while the next one is on its way). Cancelling the pull cancels the request.
struct PagePrefetch: Sendable {
    private let task: Task<Result<PretixOrderPage, PretixError>, Never>

    init(client: PretixClient, event: String, cursor: PretixOrderCursor, next: PretixNextPage?) {
        task = Task {
            do throws(PretixError) { return .success(try await client.ordersPage(event: event, cursor: cursor, next: next)) } catch {
                return .failure(error)
            }
        }
    }

    /// The page, or pretix's error for it.
    func page() async throws(PretixSyncError) -> PretixOrderPage {
        let task = task
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        switch result {
        case .success(let page): return page
        case .failure(let error): throw .pretix(error)
        }
    }

    func cancel() { task.cancel() }
}
