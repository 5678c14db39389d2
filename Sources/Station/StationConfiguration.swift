import CheckInCore
import Foundation
import OperatorConsole
import PrintSpooler

/// `kiosk run`'s settings: the configuration file (`key = value`, `#` comments; see
/// Kiosk/kiosk.conf.example), with command-line options taking precedence.
public struct StationConfiguration: Sendable, Equatable {
    public var hubURL: String?
    /// The PEM file of the private CA that signed the hub's certificate (`ca_file`); nil: the
    /// system's trust store.
    public var caFile: String?
    /// Whether plain `http://` to a hub on another machine is allowed (`allow_insecure_http`).
    public var allowInsecureHTTP = false
    public var event: String?
    /// `QUEUE` (CUPS), `pdf:DIR`, or `none`; nil = PDFs in `<data-dir>/badges`.
    public var printer: String?
    public var badgeTemplate: String?
    public var printPolicy: PrintPolicy = .onAdmission
    /// Whether the station records entries (the default) or exits (`direction = exit`).
    public var direction: Direction = .entry
    /// A second CUPS queue for badges that fail or time out on the first (`printer_failover`).
    public var failoverPrinter: String?
    /// How long a badge may take before the queue tries the other printer or holds it
    /// (`print_timeout_seconds`, default 20).
    public var printTimeout: Duration = .seconds(20)
    /// Badges that waited longer (printer down) wait for the operator's word
    /// (`print_stale_minutes`, default 10): their attendees may have left.
    public var printStaleAfter: Duration = .seconds(600)
    /// How long badge PDFs written to a folder are kept (`pdf_retention_hours`, default 24; 0 keeps them).
    public var pdfRetention: Duration? = PDFFolderOutput.defaultRetention
    /// How often the station pulls its roster source and sends its report between changes
    /// (`sync_interval_seconds`); nil: the source's own (5 s for a hub, which also follows
    /// changes as they commit; 3 s for pretix, which has no such channel). Check-ins go up at once
    /// either way.
    public var syncInterval: Duration?
    public var selfServicePIN: String?
    public var selfService = false
    /// Guests' names in the headless lines (`headless_names`); nil: not under systemd (``HeadlessNames``).
    public var headlessNames: Bool?
    public var camera: String?
    /// The key file that opens the station's guest data (`storage_key_file`), outside the data
    /// directory; see ``StorageKeySource`` for the credential and the default.
    public var storageKeyFile: String?
    /// How long after its event ended a hub station keeps the event's guest data
    /// (`purge_after_days`, default 7; 0 keeps it until sign-out).
    public var purgeAfter: Duration? = .seconds(7 * 86_400)
    public var frames: String?
    public var frameWidth = 640
    public var frameHeight = 480
    public var stationName: String?
    /// The venue's IANA time zone: dates without an offset in imported roster files (a ticket's
    /// "Valid from 2026-11-24 09:00") are read in it. Empty: the system's.
    public var timeZone: String?
    public var operatorName: String?
    /// A dedicated scanner (`scanner`): an input event device the station grabs
    /// (`/dev/input/by-id/…-event-kbd`) or a serial port (`/dev/ttyACM0`, `/dev/kiosk-scanner`).
    public var scanner: String?
    /// The layout that scanner emulates (`scanner_layout`: us, uk, de, fr; default us).
    public var scannerLayout = "us"
    /// Whether Tab ends a code as Enter does (`scanner_tab_ends_code`; some scanners send Tab).
    public var scannerTabEndsCode = false
    /// When keys typed on the console are a keyboard-wedge scan (`wedge_max_key_gap_ms`,
    /// `wedge_min_length`).
    public var wedge = WedgeThresholds.standard
    /// Things the file says that work but should change (an old name of a print policy), for
    /// the operator; never a reason to refuse the configuration.
    public var warnings: [String] = []

    public init() {}

    public static let keys: Set<String> = [
        "hub", "event", "printer", "template", "print_policy", "self_service_pin", "self_service", "camera", "frames",
        "frame_size", "station_name", "time_zone", "operator", "direction", "printer_failover", "print_timeout_seconds", "print_stale_minutes",
        "scanner", "scanner_layout", "scanner_tab_ends_code", "wedge_max_key_gap_ms", "wedge_min_length",
        "ca_file", "allow_insecure_http", "pdf_retention_hours", "headless_names", "storage_key_file", "purge_after_days",
        "sync_interval_seconds",
    ]

    /// Reads a configuration file.
    /// - Throws: ``StationError/configuration(file:line:reason:)`` naming the bad line.
    public static func load(_ url: URL) throws(StationError) -> StationConfiguration {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw .unusableInput("Cannot read the configuration file \(url.path): check the path and its permissions.")
        }
        var configuration = StationConfiguration()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .configuration(file: url.path, line: index + 1, reason: "expected key = value")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            try configuration.set(key, value, file: url.path, line: index + 1)
        }
        return configuration
    }

    mutating func set(_ key: String, _ value: String, file: String, line: Int) throws(StationError) {
        let text: String? = value.isEmpty ? nil : value
        switch key {
        case "hub": hubURL = text
        case "ca_file": caFile = text
        case "allow_insecure_http":
            guard let allowed = Self.yesNo(value) else {
                throw .configuration(file: file, line: line, reason: "allow_insecure_http must be true or false")
            }
            allowInsecureHTTP = allowed
        case "event": event = text
        case "printer": printer = text
        case "template": badgeTemplate = text
        case "print_policy":
            guard let (policy, alias) = PrintPolicy.parse(value) else {
                throw .configuration(file: file, line: line, reason: "print_policy must be one of \(PrintPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if alias { warnings.append("\(file):\(line): print_policy = \(value) is the old name of \(policy.rawValue); use that.") }
            printPolicy = policy
        case "self_service_pin":
            if !value.isEmpty, let problem = PINGuard.problem(withPIN: value) {
                throw .configuration(file: file, line: line, reason: problem)
            }
            selfServicePIN = text
        case "self_service": selfService = ["1", "true", "yes", "on"].contains(value.lowercased())
        case "camera": camera = text
        case "frames": frames = text
        case "frame_size":
            guard let size = Self.frameSize(value) else { throw .configuration(file: file, line: line, reason: "frame_size must look like 640x480") }
            (frameWidth, frameHeight) = size
        case "direction":
            guard let direction = Direction(rawValue: value.lowercased()) else {
                throw .configuration(file: file, line: line, reason: "direction must be entry or exit")
            }
            self.direction = direction
        case "printer_failover": failoverPrinter = text
        case "print_timeout_seconds":
            guard let seconds = Int(value), (1...3600).contains(seconds) else {
                throw .configuration(file: file, line: line, reason: "print_timeout_seconds must be a number of seconds from 1 to 3600")
            }
            printTimeout = .seconds(seconds)
        case "sync_interval_seconds":
            guard text != nil else { syncInterval = nil; return }
            guard let seconds = Int(value), (1...300).contains(seconds) else {
                throw .configuration(file: file, line: line, reason: "sync_interval_seconds must be a number of seconds from 1 to 300")
            }
            syncInterval = .seconds(seconds)
        case "headless_names":
            guard let names = Self.yesNo(value) else {
                throw .configuration(file: file, line: line, reason: "headless_names must be true or false")
            }
            headlessNames = names
        case "storage_key_file": storageKeyFile = text
        case "purge_after_days":
            guard let days = Int(value), (0...3_650).contains(days) else {
                throw .configuration(file: file, line: line, reason: "purge_after_days must be a number of days from 0 (keep until sign-out) to 3650")
            }
            purgeAfter = days == 0 ? nil : .seconds(days * 86_400)
        case "pdf_retention_hours":
            guard let hours = Int(value), (0...8_760).contains(hours) else {
                throw .configuration(file: file, line: line, reason: "pdf_retention_hours must be a number of hours from 0 (keep) to 8760")
            }
            pdfRetention = hours == 0 ? nil : .seconds(hours * 3_600)
        case "print_stale_minutes":
            guard let minutes = Int(value), (1...1440).contains(minutes) else {
                throw .configuration(file: file, line: line, reason: "print_stale_minutes must be a number of minutes from 1 to 1440")
            }
            printStaleAfter = .seconds(minutes * 60)
        case "scanner": scanner = text
        case "scanner_layout":
            guard let layout = KeyboardLayout.named(value) else {
                throw .configuration(file: file, line: line, reason: "scanner_layout must be one of \(KeyboardLayout.all.map(\.name).joined(separator: ", "))")
            }
            scannerLayout = layout.name
        case "scanner_tab_ends_code": scannerTabEndsCode = ["1", "true", "yes", "on"].contains(value.lowercased())
        case "wedge_max_key_gap_ms":
            guard let milliseconds = Int(value), (0...500).contains(milliseconds) else {
                throw .configuration(file: file, line: line, reason: "wedge_max_key_gap_ms must be a number of milliseconds from 0 (off) to 500")
            }
            wedge.maxKeyGap = .milliseconds(milliseconds)
        case "wedge_min_length":
            guard let length = Int(value), (2...256).contains(length) else {
                throw .configuration(file: file, line: line, reason: "wedge_min_length must be a number of characters from 2 to 256")
            }
            wedge.minLength = length
        case "station_name": stationName = text
        case "time_zone":
            guard value.isEmpty || TimeZone(identifier: value) != nil else {
                throw .configuration(file: file, line: line, reason: "time_zone \"\(value)\" is not an IANA time zone (like Europe/Berlin or America/New_York)")
            }
            timeZone = text
        case "operator": operatorName = text
        default:
            throw .configuration(file: file, line: line, reason: "unknown key \"\(key)\" (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }
    }

    /// `true`/`yes`/`on`/`1` or `false`/`no`/`off`/`0`/empty; nil for anything else (a typo in a
    /// security setting is refused, not read as "no").
    static func yesNo(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "true", "yes", "on": true
        case "", "0", "false", "no", "off": false
        default: nil
        }
    }

    /// `WxH` → (W, H), each between 16 and 8192.
    public static func frameSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (16...8192).contains(width), (16...8192).contains(height) else { return nil }
        return (width, height)
    }
}
