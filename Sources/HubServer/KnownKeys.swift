import Synchronization

/// Keys per type and structural path that passed ``StrictJSON``'s full unknown-field check.
/// (HubAPI's request types are plain structs: a key valid at a path is valid there in any
/// instance, so what one request proved holds for the next.)
final class KnownKeys: Sendable {
    static let shared = KnownKeys()
    private let known = Mutex<[ObjectIdentifier: [String: Set<String>]]>([:])

    func covers(_ keys: [String: Set<String>], for type: Any.Type) -> Bool {
        known.withLock { known in
            guard let paths = known[ObjectIdentifier(type)] else { return false }
            return keys.allSatisfy { path, names in paths[path].map(names.isSubset(of:)) ?? names.isEmpty }
        }
    }

    func learn(_ keys: [String: Set<String>], for type: Any.Type) {
        known.withLock { known in
            // A bound, should a type ever take free-form keys: past it, only the full check runs.
            guard (known[ObjectIdentifier(type)]?.values.reduce(0) { $0 + $1.count } ?? 0) < 512 else { return }
            for (path, names) in keys { known[ObjectIdentifier(type), default: [:]][path, default: []].formUnion(names) }
        }
    }
}
