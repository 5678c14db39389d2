import Foundation
import PackagePlugin

/// Embeds the SQL migrations of `Migrations/` into the target that applies them, so an installed
/// binary can never run without (or with other) migrations than the ones it was built with.
///
/// Which folders a target embeds is decided by its name (see `folders`).
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    /// Target name → (Swift variable, folder under `Migrations/`).
    static let folders: [String: [(variable: String, folder: String)]] = [
        "KioskStore": [("embeddedKioskMigrations", "kiosk")],
        "HubStorageSQLite": [("embeddedHubSQLiteMigrations", "hub/sqlite")],
        "HubStoragePostgres": [("embeddedHubPostgresMigrations", "hub/postgres")],
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let folders = Self.folders[target.name] else { return [] }
        let tool = try context.tool(named: "embed-migrations")
        return folders.map { entry in
            let directory = context.package.directoryURL.appending(path: "Migrations/\(entry.folder)")
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
                .filter { $0.hasSuffix(".sql") }
                .sorted()
                .map { directory.appending(path: $0) }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(entry.variable).swift")
            return .buildCommand(
                displayName: "Embedding \(files.count) SQL migrations from Migrations/\(entry.folder)",
                executable: tool.url,
                arguments: [output.path, entry.variable, directory.path],
                inputFiles: [directory] + files,
                outputFiles: [output]
            )
        }
    }
}
