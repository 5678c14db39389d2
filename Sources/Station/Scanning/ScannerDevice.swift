import CEvdev
import Foundation
import OperatorConsole

/// The configured scanner, opened: an input event device grabbed for the station alone, or a
/// serial port in raw mode. Which of the two is decided by the device itself at every open, so
/// a udev name (`/dev/kiosk-scanner`) works for either.
struct ScannerDevice {
    enum Kind: Equatable {
        /// Key events; the name the device reports.
        case evdev(name: String)
        case serial
    }

    let path: String
    let fd: Int32
    let kind: Kind

    /// Opens read-only and takes the device: `EVIOCGRAB` for an event device, so its keys never
    /// reach the console or anyone else; raw mode for a serial port.
    static func open(_ path: String) throws(ScannerError) -> ScannerDevice {
        let fd = Glibc.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ScannerError(errno: errno, path: path, operation: "open") }
        do throws(ScannerError) {
            if isatty(fd) == 1 {
                try makeRaw(fd, path: path)
                return ScannerDevice(path: path, fd: fd, kind: .serial)
            }
            var version: Int32 = 0
            guard cevdev_version(fd, &version) == 0 else { throw ScannerError.notAScanner(path: path) }
            guard cevdev_grab(fd, 1) == 0 else { throw ScannerError(errno: errno, path: path, operation: "grab") }
            return ScannerDevice(path: path, fd: fd, kind: .evdev(name: name(of: fd)))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// The device's own name, cleaned for the status line.
    private static func name(of fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard cevdev_name(fd, &buffer, UInt32(buffer.count - 1)) >= 0 else { return "" }
        return TerminalText.clean(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Raw bytes as the scanner sends them: no echo, no line editing, CR kept as CR; one byte
    /// completes a read. The speed is left as it is (CDC-ACM ignores it).
    private static func makeRaw(_ fd: Int32, path: String) throws(ScannerError) {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw ScannerError(errno: errno, path: path, operation: "tcgetattr") }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CREAD | CLOCAL)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else { throw ScannerError(errno: errno, path: path, operation: "tcsetattr") }
        // Bytes from before the station opened the port are no scan of this attendee.
        tcflush(fd, TCIFLUSH)
    }

    /// The source as the status line and the scanner test name it.
    var source: ScannerDiagnostics.Source {
        switch kind {
        case .evdev(let name): .evdev(device: name.isEmpty ? path : "\(path) (\(name))")
        case .serial: .serial(device: path)
        }
    }

    /// Closing also ends the grab.
    func close() {
        Glibc.close(fd)
    }
}
