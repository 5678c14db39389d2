import CEvdev
import Foundation

/// A pseudo-terminal whose slave end plays a serial scanner's port: what is written to the
/// master arrives there as the scanner's bytes. Closing the master is pulling the cable.
final class PseudoTerminal {
    let master: Int32
    let slavePath: String

    init() throws {
        var master: Int32 = -1, slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        guard openpty(&master, &slave, &name, nil, nil) == 0 else { throw PseudoTerminalError(errno: errno) }
        // The scanner side is opened by the station under test, not held here: only then does
        // closing the master hang the port up.
        Glibc.close(slave)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        self.master = master
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    private var closed = false

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(master)
    }

    deinit { close() }
}

struct PseudoTerminalError: Error {
    var errno: Int32
}

/// A stable name for a device that comes and goes (what udev's SYMLINK does): `point(to:)`
/// replaces the link atomically.
struct DeviceLink {
    let url: URL

    func point(to target: String) throws {
        let temporary = url.path + ".new"
        unlink(temporary)
        guard symlink(target, temporary) == 0, rename(temporary, url.path) == 0 else { throw PseudoTerminalError(errno: errno) }
    }
}
