import CheckInCore
import HTTPTypes
import HubAPI
import HubServer
import Hummingbird
import Logging
import NIOCore

/// `GET /events/{id}/exports/{attendance,log,conflicts}.csv`: the event's attendance, the hub's
/// log and its conflicts as spreadsheet files (``ExportDocuments``). Organizers and support.
struct ExportFiles {
    let site: WebSite
    let reports: any ExportRepository & ReportRepository

    enum Export: String, CaseIterable {
        case attendance, log, conflicts
    }

    func add(to group: RouterGroup<HubRequestContext>) {
        for export in Export.allCases {
            group.get("exports/\(export.rawValue).csv", use: { _, context in
                let caller = try context.requireCaller(), event = try context.requireEvent()
                let time = WebTime(timeZone: event.timeZone)
                let file = switch export {
                case .attendance: ExportDocuments.attendance(try await reports.attendance(event: event.id), time: time)
                case .log: ExportDocuments.log(try await reports.hubLog(event: event.id), time: time)
                case .conflicts: ExportDocuments.conflicts(try await reports.conflicts(event: event.id), time: time)
                }
                site.logger.info("export downloaded", metadata: ["event": "\(event.id)", "export": "\(export.rawValue)", "staff": "\(caller.staff.id)"])
                var headers = WebResponse.pageHeaders(contentType: "text/csv; charset=utf-8")
                headers[.contentDisposition] = "attachment; filename=\"\(Self.fileName(event: event.id, export))\""
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
            })
        }
    }

    /// `autumn-gala-attendance.csv`: the event id kept to letters, digits, `-` and `_`.
    static func fileName(event: String, _ export: Export) -> String {
        let safe = String(event.unicodeScalars.filter { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        return (safe.isEmpty ? "event" : safe) + "-" + export.rawValue + ".csv"
    }
}
