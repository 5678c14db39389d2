/// How long a request body may take to arrive: the decision ``RequestTimeoutHandler`` carries
/// out, as a value.
///
/// A body of up to ``HubLimits/smallBodyBytes`` (a form, a sign-in, a small upload) must be
/// complete within ``grace`` of its head. A larger one, or one of unknown length (chunked), gets
/// the grace and then must keep an average of ``minimumBytesPerSecond``: by each moment `t` after
/// the grace, `minimumBytesPerSecond × t` bytes must have come. A client that trickles a byte at a
/// time, however often, is cut once the grace is over; one on a slow uplink is not.
struct BodyPace: Sendable, Equatable {
    var grace: Duration
    var minimumBytesPerSecond: Int
    var smallBodyBytes = HubLimits.smallBodyBytes

    /// How long after the head the body may still be incomplete, given its declared length and
    /// the bytes received so far. Past it, with no further byte, the connection is cut; each byte
    /// that comes moves it later by its share of the pace (never beyond what the whole declared
    /// body would earn).
    func allowed(declaredLength: Int?, received: Int) -> Duration {
        if let declaredLength, declaredLength <= smallBodyBytes { return grace }
        let rate = max(1, minimumBytesPerSecond)
        let earned = min(received, declaredLength ?? received)
        // Whole seconds and the remainder apart: no overflow however large the body.
        return grace + .seconds(earned / rate) + .milliseconds((earned % rate) * 1_000 / rate)
    }
}
