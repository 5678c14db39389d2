import Foundation
import HTTPTypes

/// The address a request comes from, for per-client limits.
///
/// The connection's peer, unless that peer is a configured trusted proxy: then the last address
/// in `X-Forwarded-For` that is not itself a trusted proxy (the one the proxy saw; anything
/// further left was written by the client and proves nothing). Without a trusted proxy the header
/// is ignored, so a client cannot pick its own address.
enum ClientAddress {
    static func resolve(peer: String?, forwardedFor: String?, trustedProxies: Set<String>) -> String {
        let peer = peer ?? "unknown"
        guard trustedProxies.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? peer
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
