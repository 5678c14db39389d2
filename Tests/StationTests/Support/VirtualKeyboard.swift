import CEvdev
import Foundation
@testable import Station

/// A keyboard made with uinput: the kernel gives it an event node like a real USB scanner's,
/// and what is written here comes out of that node.
final class VirtualKeyboard {
    let fd: Int32

    /// Whether this machine can make one, and why not.
    static let availability: (available: Bool, reason: String) = {
        let fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            return (false, "/dev/uinput cannot be opened (\(reason)): this kernel offers no uinput device here, so the grab is not tried on a real event device")
        }
        close(fd)
        return (true, "")
    }()

    init(name: String, vendor: UInt16, product: UInt16) throws {
        fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0, cevdev_uinput_create_keyboard(fd, name, vendor, product) == 0 else { throw PseudoTerminalError(errno: errno) }
    }

    /// `/dev/input/eventN` of this keyboard, once the kernel (and udev) made it.
    func eventNode() throws -> String {
        var name = [CChar](repeating: 0, count: 64)
        guard cevdev_uinput_sysname(fd, &name, UInt32(name.count)) >= 0 else { throw PseudoTerminalError(errno: errno) }
        let sysname = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = "/sys/devices/virtual/input/\(sysname)"
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if let event = entries.first(where: { $0.hasPrefix("event") }), FileManager.default.fileExists(atPath: "/dev/input/\(event)") {
                return "/dev/input/\(event)"
            }
            usleep(50_000)
        }
        throw PseudoTerminalError(errno: ENOENT)
    }

    /// Sends recorded key events (uinput stamps them with the time they are written).
    func play(_ events: [InputEvent]) {
        for event in events where event.type != UInt16(EV_MSC) {
            let record = event.record
            _ = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            usleep(500)
        }
    }

    deinit {
        _ = cevdev_uinput_destroy(fd)
        close(fd)
    }
}
