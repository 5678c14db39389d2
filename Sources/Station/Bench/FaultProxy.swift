import Foundation
import Synchronization

/// A loopback TCP proxy in front of a real hub for the door benchmark: it passes bytes through,
/// or plays the venue network's faults on command. `down` resets every connection (the hub is
/// unreachable); `slow` holds each answer back before passing it on; `failing` answers every
/// request with an HTTP 500 of its own (the server is up but broken) and closes the connection.
final class FaultProxy: Sendable {
    enum Mode: Sendable, Equatable {
        case pass
        case down
        case slow(Duration)
        case failing
    }

    let port: UInt16
    private let listener: Int32
    private let upstreamPort: UInt16
    private let mode = Mutex(Mode.pass)
    private let stopped = Mutex(false)

    /// Listens on an ephemeral loopback port and forwards to `127.0.0.1:upstreamPort`.
    init(upstreamPort: UInt16) throws {
        self.upstreamPort = upstreamPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "bench.proxy"
        thread.start()
    }

    func set(_ mode: Mode) { self.mode.withLock { $0 = mode } }

    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            if mode.withLock({ $0 }) == .down {
                close(client)
                continue
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(upstream); close(client); continue }
            let pair = Pair(client: client, upstream: upstream)
            let up = Thread { [self] in pump(from: client, to: upstream, answers: false); shutdown(upstream, Int32(SHUT_WR)); pair.finishOne() }
            let down = Thread { [self] in pump(from: upstream, to: client, answers: true); shutdown(client, Int32(SHUT_WR)); pair.finishOne() }
            up.start()
            down.start()
        }
    }

    private func pump(from source: Int32, to target: Int32, answers: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { return }
            switch mode.withLock({ $0 }) {
            case .down: return
            case .slow(let delay) where answers: Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            case .failing where answers:
                // The server's own answer is dropped; the client reads a 500 and a closed connection.
                let error = Array("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nConnection: close\r\n\r\nServer Error".utf8)
                _ = error.withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
                return
            default: break
            }
            var sent = 0
            while sent < count {
                let written = buffer[sent..<count].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
                guard written > 0 else { return }
                sent += written
            }
        }
    }

    /// The two sockets of one proxied connection, closed when both directions ended.
    final class Pair: Sendable {
        let client: Int32
        let upstream: Int32
        private let open = Mutex(2)

        init(client: Int32, upstream: Int32) {
            self.client = client
            self.upstream = upstream
        }

        func finishOne() {
            if open.withLock({ $0 -= 1; return $0 }) == 0 {
                close(client)
                close(upstream)
            }
        }
    }
}
