import CheckInCore
import Foundation
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging
import NIOCore
import RosterCSV

/// `GET|POST /events/{id}/roster`: an organizer uploads the event's roster (CSV or `.xlsx`)
/// and sees the same report as `checkin-hub import` gives: imported, updated, unchanged and
/// rejected rows (with line and reason), the columns recognised and ignored; "replace" is the
/// command's `--replace`, refused the same way when rows are rejected. The file is read by
/// ``RosterImport``, the command's importer; a file it cannot read changes nothing and is
/// answered in words. Organizers only. Stations and the live page learn the new roster through
/// the event's changes, as after the command.
struct RosterUploadPage {
    let site: WebSite
    let events: any EventRepository

    /// The largest upload body: the importer's largest file (``RosterCSV/RosterFileReader/maximumBytes``)
    /// and room for the form around it.
    static let maximumBodyBytes = RosterFileReader.maximumBytes + 64 * 1024

    /// What the `roster-upload` template reads.
    struct Model {
        var frame: PageFrame
        var eventID: String
        var eventName: String
        var zone: String
        var upload: PostForm
        var problem: String?
        var report: ReportView?
    }

    /// The import's report, in words.
    struct ReportView {
        var fileName: String
        var readAs: String
        var imported: Int
        var updated: Int
        var unchanged: Int
        var rejectedCount: Int
        var rejected: [RosterRejection]
        var hasRejected: Bool
        var recognised: String
        var ignored: String
        var hasIgnored: Bool
        var warnings: [String]
        var replaced: Bool
        var revokedCount: Int
        var revoked: String
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("roster", use: { request, context in
            let caller = try context.requireCaller(), event = try context.requireEvent()
            return render(request, caller, event)
        })
        group.post("roster", use: { request, context in
            var request = request
            let caller = try context.requireCaller(), event = try context.requireEvent()
            // WebAccessMiddleware collected the body (bounded) to check the token: this is that buffer.
            let body = try await request.collectBody(upTo: Self.maximumBodyBytes)
            let upload: RosterUpload
            switch RosterUpload.decide(contentType: request.headers[.contentType], body: Array(body.readableBytesView)) {
            case .failure(let problem):
                return render(request, caller, event, problem: problem.description, status: .unprocessableContent)
            case .success(let found):
                upload = found
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("checkin-hub-upload-\(Tokens.identifier("up"))")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(upload.bytes).write(to: file, options: .withoutOverwriting)
            let actor = caller.staff, name = upload.fileName, replace = upload.replace
            do {
                let report = try await RosterImport.run(file, into: event, replace: replace, store: events, named: name) { summary in
                    OrganizerAction(eventID: event.id, actor: actor, kind: .rosterUploaded, subject: name,
                                    detail: Self.describe(summary, replace: replace), at: .now())
                }
                site.logger.info("roster uploaded", metadata: [
                    "event": "\(event.id)", "imported": "\(report.summary.imported)", "updated": "\(report.summary.updated)",
                    "rejected": "\(report.file.rejected.count)",
                ])
                return render(request, caller, event, report: Self.view(report, fileName: name, replace: replace))
            } catch let failure as RosterImport.Failure {
                let words = failure.description
                return render(request, caller, event, problem: "“\(EventForm.shown(name))”: \(words)\(words.contains("Nothing was changed") ? "" : " Nothing was changed.")",
                              status: .unprocessableContent)
            }
        })
    }

    private func render(_ request: Request, _ caller: AuthenticatedSession, _ event: EventSummary, problem: String? = nil,
                        report: ReportView? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let model = Model(frame: PageFrame("Roster · \(event.name)", for: caller, request), eventID: event.id,
                          eventName: event.name, zone: WebTime(timeZone: event.timeZone).zoneName,
                          upload: FormTokens(request, caller).form("/events/\(GuestPage.segment(event.id))/roster"), problem: problem, report: report)
        return WebResponse.html(WebAssets.render("roster-upload", model), status: status)
    }

    static func view(_ report: RosterImport.Report, fileName: String, replace: Bool) -> ReportView {
        let file = report.file, summary = report.summary
        return ReportView(
            fileName: fileName, readAs: file.readAs, imported: summary.imported, updated: summary.updated, unchanged: summary.unchanged,
            rejectedCount: file.rejected.count, rejected: file.rejected, hasRejected: !file.rejected.isEmpty,
            recognised: file.recognisedColumns.joined(separator: ", "), ignored: file.ignoredColumns.joined(separator: ", "),
            hasIgnored: !file.ignoredColumns.isEmpty, warnings: file.warnings, replaced: replace, revokedCount: summary.revokedMissing.count,
            revoked: summary.revokedMissing.prefix(50).joined(separator: ", ") + (summary.revokedMissing.count > 50 ? ", …" : ""))
    }

    static func describe(_ summary: ImportSummary, replace: Bool) -> String {
        "imported \(summary.imported), updated \(summary.updated), unchanged \(summary.unchanged)"
            + (replace ? ", replace: revoked \(summary.revokedMissing.count) missing from the file" : "")
    }
}

/// The upload form's parts, checked: a chosen file and the "replace" choice. No I/O.
struct RosterUpload: Sendable {
    var fileName: String
    var bytes: ArraySlice<UInt8>
    var replace: Bool

    enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case notAnUpload
        case noFile

        var description: String {
            switch self {
            case .notAnUpload: "The upload could not be read. Choose the file again and upload it from this page."
            case .noFile: "Choose a roster file (CSV or .xlsx) first."
            }
        }
    }

    static func decide(contentType: String?, body: [UInt8]) -> Result<RosterUpload, Problem> {
        guard let boundary = MultipartForm.boundary(contentType: contentType), let form = try? MultipartForm(body, boundary: boundary) else {
            return .failure(.notAnUpload)
        }
        guard let file = form["file"], let name = file.filename, !name.isEmpty else { return .failure(.noFile) }
        // A browser sends the bare name; older ones sent a path.
        let bare = String(name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? Substring(name))
        return .success(RosterUpload(fileName: Sanitized.text(bare), bytes: file.bytes, replace: form["replace"] != nil))
    }
}
