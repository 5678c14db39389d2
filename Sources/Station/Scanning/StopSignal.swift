import Foundation

/// Wakes a thread blocked in `poll` on a device: a pipe whose read end becomes readable once
/// ``signal()`` is called. Blocking reads stay off the cooperative pool and still end promptly.
final class StopSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    var isSignalled: Bool { wait(.zero) }

    /// Waits up to `duration`; whether the stop came.
    func wait(_ duration: Duration) -> Bool {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready >= 0 || errno != EINTR { return ready > 0 }
        }
    }

    enum Wait { case readable, stopped }

    /// Blocks until `fd` has something to read (data, end of file or an error) or the stop comes.
    func waitForInput(on fd: Int32) -> Wait {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        while poll(&descriptors, 2, -1) < 0 && errno == EINTR {}
        return descriptors[1].revents != 0 ? .stopped : .readable
    }
}
