import CheckInCore
import ServiceLifecycle

/// What the print queue tells the station.
public enum PrintQueueNews: Sendable, Equatable {
    case badge(BadgeProgress)
    case printer(PrinterCondition)
    /// Badges waited longer than the stale limit: the operator decides ("Print 12 waiting badges?");
    /// `nil` once nothing waits for an answer.
    case staleBadges(StaleBadgesQuestion?)
}

/// The station's badge printing: a durable queue of badge jobs (rows written with their
/// check-ins) worked in the background as one of the station's services, so the line never
/// waits for a printer.
public protocol BadgePrinting: Service {
    /// "cups:BrotherQL", "pdf:/var/lib/…/badges".
    var name: String { get }
    /// The queue new badge jobs are written for.
    var queueName: String { get }
    /// Progress of badges, printer condition, questions. One consumer.
    var news: AsyncStream<PrintQueueNews> { get }
    /// A badge job was just committed: look now.
    func nudge()
    /// Queues another badge for a guest (audited as a reprint); returns the job id.
    func reprint(guestID: String, requestedBy: String) async throws -> Int64
    /// The operator's answer about badges that waited too long.
    func answer(_ choice: StaleBadgesChoice) async throws
}
