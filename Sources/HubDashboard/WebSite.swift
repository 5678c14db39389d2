import HubServer
import Logging

/// What every dashboard page uses, whatever it reads: the hub's log, its request figures, and
/// how it is reached (HTTPS, trusted proxies, limits) for cookies and errors shown as pages.
/// Each page takes this and only the repositories it reads.
struct WebSite: Sendable {
    let logger: Logger
    let metrics: HubMetrics
    let configuration: HubServerConfiguration
}
