import Foundation
import Glibc

/// Raw TCP connections to a hub child on loopback, for the benchmarks' abusive clients: requests
/// left half-sent or trickled, streams opened and held, which URLSession cannot do.
enum LoopbackSockets {
    /// A connection to `port` on 127.0.0.1 that has sent `text`, or `nil` when none could be made.
    static func open(port: Int, sending text: String) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, send(socket, text) else {
            close(socket)
            return nil
        }
        return socket
    }

    /// Sends `text`; false when the hub has closed the connection.
    @discardableResult
    static func send(_ socket: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.isEmpty || bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the hub still holds the connection: no end of stream waiting to be read.
    static func isOpen(_ socket: Int32) -> Bool {
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return true }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// The status code of the answer's first line, waiting at most `seconds` (0: none came).
    static func status(_ socket: Int32, within seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        while !received.contains(UInt8(ascii: "\n")) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return 0 }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1_000) + 1) == 1 else { continue }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return 0 }
            received += buffer[0..<count]
        }
        let line = String(decoding: received, as: UTF8.self)
        return line.hasPrefix("HTTP/1.1 ") ? Int(line.dropFirst(9).prefix(3)) ?? 0 : 0
    }
}
