import ArgumentParser
import CheckInCore
import Foundation
import HubAPI
import HubServer
import Logging

@main
struct CheckinHub: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin-hub",
        abstract: "The server many check-in stations sync with (SQLite or PostgreSQL).",
        version: ProductVersion.current,
        subcommands: [Serve.self, EventCommand.self, ImportCommand.self, StaffCommand.self, AccessTypeCommand.self, TokensCommand.self, StatsCommand.self, BenchCommand.self])
}

/// `--db` and `--json`, shared by the administration commands.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "sqlite:PATH or postgres://USER@HOST:PORT/DATABASE")
    var db: String

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    /// Opens and migrates the store, runs `body`, closes the store.
    func withStore<T>(_ body: (any HubStore) async throws -> T) async throws -> T {
        var logger = Logger(label: "checkin-hub")
        logger.logLevel = .warning
        let store: any HubStore
        do {
            store = try HubDatabase.open(db, logger: logger)
        } catch {
            throw ValidationError(String(describing: error))
        }
        do {
            _ = try await store.migrate()
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

func printJSON(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
