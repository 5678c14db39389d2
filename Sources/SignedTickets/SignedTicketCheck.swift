/// What a presented code is, checked against the event's signing keys (``SignedTicketFormat/check(_:keys:)``).
public enum SignedTicketCheck: Sendable, Hashable {
    /// Not in the signed format: an ordinary code, looked up in the roster.
    case notSigned
    /// In the signed format, but no key of the event signed it (a forged or damaged code, or a
    /// ticket of another event): refused as an unknown code.
    case forged
    /// Signed by one of the event's keys.
    case valid(SignedTicket)
}
