import Foundation

/// Whether the headless lines carry guests' names. When stdout is the journal (a station run by
/// systemd), anyone in `systemd-journal` or `adm` reads them, long after the event: there a guest
/// is its id, access type and code. On a terminal or in a pipe an operator is reading them.
/// `headless_names = true | false` in kiosk.conf decides otherwise.
public enum HeadlessNames {
    /// systemd sets `JOURNAL_STREAM` to `DEVICE:INODE` of the stream it connected to stdout; an
    /// inherited variable with another stdout (a pipe, a terminal) does not count.
    public static func stdoutIsTheJournal(environment: [String: String] = ProcessInfo.processInfo.environment,
                                          stdout: (device: UInt64, inode: UInt64)? = standardOutputIdentity()) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"], let stdout else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        return device == stdout.device && inode == stdout.inode
    }

    public static func standardOutputIdentity() -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
