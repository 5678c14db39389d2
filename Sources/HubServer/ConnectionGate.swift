import Synchronization

/// How many connections a hub process holds open, in all and per client address
/// (``ClientAddress/key(_:)``: an IPv6 client by its /64): a connection beyond either cap is
/// refused at once (``ConnectionLimitHandler``), so no client can take every descriptor, and
/// one client cannot take the whole total. A trusted proxy's connections count in the total
/// only; the proxy has its own per-client limit (README: `limit_conn`).
final class ConnectionGate: Sendable {
    /// Why a connection was refused.
    enum Refusal: Error, Sendable, Equatable {
        case total(Int)
        case client(Int)
    }

    private struct State {
        var open = 0
        var perClient: [String: Int] = [:]
    }

    private let state = Mutex(State())
    let maximum: Int
    let maximumPerClient: Int
    let trustedProxies: Set<String>

    init(maximum: Int, maximumPerClient: Int, trustedProxies: Set<String>) {
        self.maximum = maximum
        self.maximumPerClient = maximumPerClient
        self.trustedProxies = trustedProxies
    }

    /// Takes a place for a connection from `peer` (its address), or says why not. An admitted
    /// connection gives its place back with ``release(_:)`` and the key returned here.
    func admit(peer: String?) -> Result<String?, Refusal> {
        let key = peer.flatMap { trustedProxies.contains($0) ? nil : ClientAddress.key($0) }
        return state.withLock { state in
            guard state.open < maximum else { return .failure(.total(maximum)) }
            if let key {
                guard state.perClient[key, default: 0] < maximumPerClient else { return .failure(.client(maximumPerClient)) }
                state.perClient[key, default: 0] += 1
            }
            state.open += 1
            return .success(key)
        }
    }

    func release(_ key: String?) {
        state.withLock { state in
            state.open -= 1
            guard let key else { return }
            let left = state.perClient[key, default: 1] - 1
            state.perClient[key] = left > 0 ? left : nil
        }
    }

    /// Connections open now, and clients with at least one.
    var load: (open: Int, clients: Int) { state.withLock { ($0.open, $0.perClient.count) } }
}
