import Foundation
import HubDashboard
import HubServer
import Hummingbird
import Logging
import ServiceLifecycle

/// What `checkin-hub serve` runs: where the hub's data is and how it serves.
public struct HubServeConfiguration: Sendable {
    /// `--db`: `sqlite:PATH`, `postgres://USER@HOST:PORT/DB` or `memory:` (``HubDatabase``).
    public var database: String
    /// PostgreSQL's password file (`--db-password-file`, see `PostgresSettings`).
    public var databasePasswordFile: String?
    public var server: HubServerConfiguration

    public init(database: String, databasePasswordFile: String? = nil, server: HubServerConfiguration) {
        self.database = database
        self.databasePasswordFile = databasePasswordFile
        self.server = server
    }
}

/// `--db` names no database the hub can open; says which and why, for the operator to correct it.
public struct HubDatabaseOptionError: Error, CustomStringConvertible {
    public var description: String
}

/// The hub as `checkin-hub serve` runs it: the store opened and migrated before anything is
/// served, then the /v1 API and the dashboard on one address, with the change feed and the store
/// as services of its group (the store closes once the server has stopped).
/// - Parameter onRunning: gets the bound port (with port 0, the one chosen).
/// - Throws: ``HubDatabaseOptionError`` when `--db` cannot be opened; a migration's own error.
public func buildApplication(configuration: HubServeConfiguration, logger: Logger,
                             onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws -> some ApplicationProtocol {
    let store: any HubStore
    do {
        store = try HubDatabase.open(configuration.database, passwordFile: configuration.databasePasswordFile, logger: logger)
    } catch {
        throw HubDatabaseOptionError(description: String(describing: error))
    }
    let applied: [String]
    do {
        applied = try await store.migrate()
    } catch {
        await store.close()
        throw error
    }
    logger.info("database ready", metadata: ["database": "\(store.kind)", "applied": "\(applied.joined(separator: ","))"])
    let server = configuration.server
    let caps = server.limits.connections()
    logger.info("serving", metadata: [
        "scheme": "\(server.tls == nil ? "http" : "https")", "max_connections": "\(caps.total)", "max_connections_per_client": "\(caps.perClient)",
    ])
    return try hubApplication(store: store, configuration: server, logger: logger, services: [StoreService(store: store)], onRunning: onRunning)
}

/// The API and the dashboard over an open store, on one address (what ``buildApplication(configuration:logger:onRunning:)``
/// serves once the store is migrated; in-process router tests use it as it is).
/// - Parameter services: run in the application's group before the change feed (the store's own closing).
public func hubApplication(store: any HubStore, configuration: HubServerConfiguration, logger: Logger, services: [any Service] = [],
                           onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
    let routes = HubRoutes(store: store, configuration: configuration, logger: logger)
    return try routes.application(services: services, pages: [Dashboard(hub: routes)], onRunning: onRunning)
}

/// The store as a service of the hub's group: closed after the HTTP server has stopped, so no
/// request loses its database halfway.
struct StoreService: Service {
    let store: any HubStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}
