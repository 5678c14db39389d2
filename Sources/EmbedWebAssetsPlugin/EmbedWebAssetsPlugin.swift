import Foundation
import PackagePlugin

/// Embeds the dashboard's templates and static files (`Assets/` inside the target) into the
/// target, as `embeddedWebAssets`, so an installed hub can never serve pages without (or with other)
/// templates than the ones it was built with. Same idea as `EmbedMigrationsPlugin`.
@main
struct EmbedWebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "embed-web-assets")
        let directory = target.directoryURL.appending(path: "Assets")
        let files = Self.files(under: directory)
        let output = context.pluginWorkDirectoryURL.appending(path: "embeddedWebAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) web assets from \(target.name)/Assets",
                executable: tool.url,
                arguments: [output.path, "embeddedWebAssets", directory.path],
                // The folders too, so adding or removing a file re-runs the tool.
                inputFiles: Self.folders(under: directory) + files,
                outputFiles: [output]
            )
        ]
    }

    static func files(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    static func folders(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isDirectoryKey]) else { return [directory] }
        return [directory] + walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
    }
}
