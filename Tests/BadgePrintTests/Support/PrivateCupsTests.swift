import PrintTestSupport
import KioskTestSupport
import Testing

/// Every suite that starts a private cupsd, run one test at a time (each rig is three daemons
/// and the whole run shares two cores), on threads of their own (`.blocking`: they wait for
/// daemons and processes, which must not hold the cooperative pool's two threads).
@Suite(.serialized, .tags(.endToEnd), .endToEnd, .blocking)
enum PrivateCupsTests {}
