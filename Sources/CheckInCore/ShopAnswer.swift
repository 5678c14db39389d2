/// The ticket shop's own word on one scan, asked online before the door decides (pretix's
/// `checkinrpc/redeem`): for lists whose rules or questions only the shop evaluates, and on a
/// station set to ask the shop first.
public enum ShopAnswer: Sendable, Hashable {
    /// The shop admitted the scan and recorded it under the scan's nonce: the station records it
    /// too, and its later upload with the same nonce adds nothing at the shop.
    case admitted
    /// The shop refused the scan, as the door's decision. The shop logged the refusal itself.
    case refused(Decision)
    /// Only the shop decides this entry and it did not answer in time (or answered nothing the
    /// station understands): the entry is refused as ``Decision/needsOnline(_:)``.
    case unreachable(OnlineOnlyCheck)
}
