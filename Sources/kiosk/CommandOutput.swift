import ArgumentParser
import Foundation
import KioskStore
import Logging

/// Exit statuses of `kiosk` besides the decision codes (0, 10–15; see `Decision.Kind.exitCode`).
enum ExitStatus {
    /// A file given on the command line cannot be used (EX_DATAERR).
    static let badInput: Int32 = 65
    /// An internal or storage error (EX_SOFTWARE).
    static let storage: Int32 = 70
    /// The disk is full (EX_IOERR).
    static let diskFull: Int32 = 74
    /// The data directory belongs to another user (EX_NOPERM).
    static let notOwner: Int32 = 77
    /// Storage did not start: failed or refused migration (EX_TEMPFAIL).
    static let storageUnavailable: Int32 = 75
    /// Another kiosk process writes to the data directory (``KioskStore/StationLock``): nothing was done.
    static let anotherStationRuns: Int32 = 73
}

/// A failure that ends a command with a message for the operator and a specific exit status.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    var exitCode: Int32
    init(_ message: String, exitCode: Int32) {
        self.description = message
        self.exitCode = exitCode
    }
}

enum CommandOutput {
    /// Logs go to stderr, so stdout stays one JSON document; `KIOSK_LOG_LEVEL` sets the level.
    static func bootstrapLogging() {
        struct Once { nonisolated(unsafe) static var done = false }
        guard !Once.done else { return }
        Once.done = true
        let level = ProcessInfo.processInfo.environment["KIOSK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    static func printJSON(_ value: JSONValue) {
        print(value.serialized)
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Runs a command body, turning failures into a message on stderr (and a JSON error
    /// document on stdout when `json` is set) and the right exit status.
    static func run(json: Bool, _ body: () async throws -> Int32) async throws {
        let status: Int32
        do {
            status = try await body()
        } catch let failure as CommandFailure {
            report(failure.description, json: json)
            throw ExitCode(failure.exitCode)
        } catch let error as StoreError {
            report(error.description, json: json)
            switch error {
            case .diskFull: throw ExitCode(ExitStatus.diskFull)
            case .storageUnavailable, .storageKey: throw ExitCode(ExitStatus.storageUnavailable)
            case .anotherStationRuns: throw ExitCode(ExitStatus.anotherStationRuns)
            default: throw ExitCode(ExitStatus.storage)
            }
        }
        if status != 0 { throw ExitCode(status) }
    }

    private static func report(_ message: String, json: Bool) {
        printError("kiosk: \(message)")
        if json { printJSON(["error": .string(message)]) }
    }
}
