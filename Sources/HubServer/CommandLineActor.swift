import Foundation
import HubAPI

/// Who acts when `checkin-hub` changes an event or an account on the hub's own machine: no staff
/// member is signed in there, so the organizer log names the command and the system account that
/// ran it (the one behind `sudo` when there is one), under an id no staff account has.
public enum CommandLineActor {
    /// The actor id of every change made from the command line.
    public static let id = "checkin-hub"

    /// The actor of this process's changes.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> StaffInfo {
        let user = environment["SUDO_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? systemUser ?? environment["USER"] ?? "unknown"
        return StaffInfo(id: id, email: "", name: "checkin-hub command line (\(user))", role: .organizer)
    }

    private static var systemUser: String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
