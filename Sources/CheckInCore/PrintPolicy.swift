/// When the station prints a guest's badge by itself (an operator can always reprint).
///
/// One vocabulary for the configuration file (`print_policy`), `kiosk run --print-policy`, the
/// per-event setting `kiosk badge` reads, and the store, which applies it in the check-in's own
/// transaction.
public enum PrintPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every admission: first entry, re-entry, walk-in.
    case onAdmission = "on_admission"
    /// A guest's first admission only; another badge needs an operator's reprint (logged).
    case once
    /// Walk-ins only (everyone else got a pre-printed badge).
    case walkInsOnly = "walk_ins_only"
    /// Only when an operator asks.
    case onRequest = "on_request"

    /// Reads a configured value. The names of earlier releases are still understood: `auto`
    /// is ``onAdmission`` and `never` is ``onRequest`` (`alias` is then set, so the caller can
    /// warn that the name is old; a station's configuration is never refused for it).
    public init?(configured text: String) {
        guard let (policy, _) = Self.parse(text) else { return nil }
        self = policy
    }

    /// The policy a configured value names and whether it was an old alias.
    public static func parse(_ text: String) -> (policy: PrintPolicy, alias: Bool)? {
        let value = text.trimmedWhitespace().lowercased()
        if let policy = PrintPolicy(rawValue: value) { return (policy, false) }
        switch value {
        case "auto": return (.onAdmission, true)
        case "never": return (.onRequest, true)
        default: return nil
        }
    }

    /// Whether an admission gets a badge without anyone asking.
    /// - Parameters:
    ///   - walkIn: the guest was registered at the door just now.
    ///   - alreadyPrinted: a badge of this guest was printed (or is on its way) before.
    public func printsAutomatically(walkIn: Bool, alreadyPrinted: Bool) -> Bool {
        switch self {
        case .onAdmission: true
        case .once: !alreadyPrinted
        case .walkInsOnly: walkIn
        case .onRequest: false
        }
    }
}
