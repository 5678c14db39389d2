import Foundation
import Glibc
import HTTPTypes

/// The address a request comes from, for per-client limits.
///
/// The connection's peer, unless that peer is a configured trusted proxy: then the last address
/// in `X-Forwarded-For` that is not itself a trusted proxy (the one the proxy saw; anything
/// further left was written by the client and proves nothing). Without a trusted proxy the header
/// is ignored, so a client cannot pick its own address.
package enum ClientAddress {
    package static func resolve(peer: String?, forwardedFor: String?, trustedProxies: Set<String>) -> String {
        let peer = peer ?? "unknown"
        guard trustedProxies.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? peer
    }

    /// What per-client limits count under: an IPv4 address as it is; an IPv6 address by its
    /// /64, the smallest block a provider hands one subscriber (each of its 2^64 addresses is not
    /// a new client); an IPv4 address mapped into IPv6 as that IPv4 address. Anything else (no
    /// address: "unknown") as it is.
    static func key(_ address: String) -> String {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, address, &ipv4) == 1 { return address }
        // A link-local address may carry its interface ("fe80::1%eth0").
        let bare = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &ipv6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

extension HTTPField.Name {
    package static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
