import Testing

/// Every suite that starts a private cupsd, run one test at a time: each rig is three daemons,
/// and the whole test run shares two cores (and two cooperative threads) with everything else.
@Suite(.serialized)
enum PrivateCupsTests {}
