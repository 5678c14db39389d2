import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import PrintSpooler
import Station

// Badge printing plugged into `kiosk run`: the cairo/pango renderer for the PDF-folder printer,
// and `--printer QUEUE` through the PrintSpooler (jobs are rows in the station database).

extension StationAdapters {
    static func installBadgePrinting(into launch: inout LaunchOptions) {
        let templateFolder = launch.configuration.badgeTemplate.map { URL(fileURLWithPath: $0) }
        launch.renderPDF = { badge in
            let templates = try templateFolder.map { try BadgeTemplates.load(from: $0) } ?? BadgeTemplates()
            let content = BadgePrint.BadgeContent(name: badge.name, company: badge.company, accessTypeID: badge.accessTypeID,
                                                  accessTypeName: badge.accessType, code: badge.code)
            return try BadgeRenderer().pdf(content, template: templates.template(forAccessType: badge.accessTypeID))
        }
        launch.openPrinterQueue = { queue, template, database in
            let templates = try template.map { try BadgeTemplates.load(from: URL(fileURLWithPath: $0)) } ?? BadgeTemplates()
            // The station's flow decides when to print; the spooler always prints what it is given.
            let spooler = PrintSpooler(database: database, cups: CupsClient(), templates: templates,
                                       configuration: SpoolerConfiguration(queue: queue, policy: .onAdmission))
            return SpoolerBadgePrinter(spooler: spooler, database: database, queue: queue)
        }
    }
}

/// A CUPS queue behind the PrintSpooler, as the station's ``BadgePrinter``.
struct SpoolerBadgePrinter: BadgePrinter {
    let spooler: PrintSpooler
    let database: KioskDatabase
    let queue: String

    var name: String { "cups:\(queue)" }

    func state() async -> PrinterState {
        guard let status = try? await spooler.printerStatus() else { return .offline("CUPS not reachable") }
        if let message = status.operatorMessage { return .needsAttention(message) }
        return status.state == .processing ? .busy : .ready
    }

    func printBadge(_ badge: Station.BadgeContent) async -> BadgeOutcome {
        do {
            guard let guest = try database.guest(id: badge.guestID) else { return .failed("guest not found") }
            let outcome = try await spooler.print(guest, requestedBy: "kiosk")
            let job = "job \(outcome.cupsJobID.map(String.init) ?? "-") on \(outcome.queue)"
            switch outcome.state {
            case .printed: return .printed(job)
            case .queued, .submitted, .printing, .unconfirmed: return .queued(outcome.reason.map { "\(job): \($0)" } ?? job)
            case .failed, .canceled, .needsAttention: return .failed(outcome.reason ?? outcome.state.rawValue)
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
