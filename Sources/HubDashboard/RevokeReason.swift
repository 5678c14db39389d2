import HubServer
/// The reason an organizer gives for revoking a ticket, as kept in the log of organizer
/// actions: one line, control characters dropped, at most ``maximumLength`` characters.
struct RevokeReason: Sendable, Hashable {
    static let maximumLength = 300

    var text: String

    /// `nil` when nothing is left to keep: a revocation must say why.
    init?(_ typed: String?) {
        let line = String(String.UnicodeScalarView((typed ?? "").unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? Unicode.Scalar(UInt8(0x20)) : $0
        }))
        let trimmed = line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard !trimmed.isEmpty else { return nil }
        text = String(trimmed.prefix(Self.maximumLength))
    }
}
