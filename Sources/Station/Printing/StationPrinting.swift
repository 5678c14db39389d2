import Foundation
import KioskStore
import Logging

/// The print queue `kiosk run` uses: `--printer QUEUE` (CUPS, with `printer_failover`),
/// `pdf:DIR`, the default folder of PDFs in the data directory, or `none`.
enum StationPrinting {
    static func open(_ configuration: StationConfiguration, database: KioskDatabase, logger: Logger) throws -> (any BadgePrinting)? {
        // Wired to the durable print queue when it lands (issue 13): until then, no printing.
        nil
    }
}
