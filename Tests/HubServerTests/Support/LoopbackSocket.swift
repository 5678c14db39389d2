import Foundation
import Glibc
import KioskTestSupport

/// A raw TCP connection to a hub on loopback, from a chosen `127.x.y.z` source address (Linux
/// routes all of 127/8 to `lo`): for what URLSession cannot do, such as trickling a request,
/// leaving one half-sent, or coming from another client address than the test's other requests.
final class LoopbackSocket: @unchecked Sendable {  // used by one task at a time
    let descriptor: Int32
    private var isClosed = false

    /// Connects to `port` on 127.0.0.1 from `source`.
    /// - Throws: when the connection cannot be made (the hub's listen queue refused it).
    init(port: Int, from source: String = "127.0.0.1") throws {
        descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClusterError("socket: \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = bound == 0 ? withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } : -1
        guard connected == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw ClusterError("connect from \(source): \(error)")
        }
    }

    deinit { close() }

    /// Sends `text`; false once the hub has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.isEmpty || bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the hub closed the connection (a read ends), waiting at most `seconds`; whatever
    /// the hub sent before closing is read and dropped.
    func closedByTheHub(within seconds: Double) -> Bool {
        read(within: seconds).closed
    }

    /// What the hub sends within `seconds`, or until it closes the connection or `until` is in it.
    func read(within seconds: Double, until marker: String? = nil) -> (text: String, closed: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        while true {
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { return (String(decoding: received, as: UTF8.self), false) }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (String(decoding: received, as: UTF8.self), false) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poller, 1, Int32(left * 1_000) + 1) == 1 else { continue }
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let count = Glibc.recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
    }

    /// The status code of the answer's head, read within `seconds` (`nil`: none came).
    func status(within seconds: Double) -> Int? {
        Self.status(of: read(within: seconds, until: "\r\n\r\n").text)
    }

    static func status(of text: String) -> Int? {
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst("HTTP/1.1 ".count).prefix(3))
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }
}

/// One whole HTTP/1.1 exchange over a ``LoopbackSocket`` (`Connection: close`).
struct LoopbackAnswer: Sendable {
    var status: Int
    /// Header names lower-cased; a repeated header keeps its last value, except `set-cookie`
    /// (see ``cookies``).
    var headers: [String: String]
    var cookies: [String: String]
    var body: String

    /// Sends one request from `source` and reads the answer to its end.
    static func exchange(port: Int, from source: String = "127.0.0.1", _ method: String, _ path: String,
                         headers: [String: String] = [:], body: String = "", within seconds: Double = 60) throws -> LoopbackAnswer {
        let socket = try LoopbackSocket(port: port, from: source)
        defer { socket.close() }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        socket.send(head + "\r\n" + body)
        let (text, closed) = socket.read(within: seconds)
        guard closed, let status = LoopbackSocket.status(of: text), let split = text.range(of: "\r\n\r\n") else {
            throw ClusterError("\(method) \(path) from \(source): no complete answer within \(seconds) s: \(text.prefix(300))")
        }
        var answer = LoopbackAnswer(status: status, headers: [:], cookies: [:], body: String(text[split.upperBound...]))
        for line in text[..<split.lowerBound].split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "set-cookie", let pair = value.split(separator: ";").first, let equals = pair.firstIndex(of: "=") {
                answer.cookies[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            } else {
                answer.headers[name] = value
            }
        }
        return answer
    }
}
