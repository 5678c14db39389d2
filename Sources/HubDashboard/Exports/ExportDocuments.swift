import CheckInCore
import HubAPI
import HubServer

/// The dashboard's three exports as spreadsheet files (``SpreadsheetCSV``), times in the
/// event's time zone, named in the header.
enum ExportDocuments {
    static func attendance(_ records: [AttendanceRecord], time: WebTime) -> SpreadsheetCSV {
        var file = SpreadsheetCSV(header: [
            "Ticket code", "Name", "E-mail", "Company", "Access type", "Walk-in", "Revoked", "Attended",
            "First admission (\(time.zoneName))", "First admission station", "First admission operator", "Entries", "Last exit (\(time.zoneName))",
        ])
        for record in records {
            file.append([
                record.code, record.name, record.email, record.company, record.accessType, record.walkIn ? "yes" : "no",
                record.revoked ? "yes" : "no", record.firstEntry == nil ? "no" : "yes", time.stamp(record.firstEntry),
                record.firstStation ?? "", record.firstOperator ?? "", String(record.entries), time.stamp(record.lastExit),
            ])
        }
        return file
    }

    static func log(_ entries: [HubLogEntry], time: WebTime) -> SpreadsheetCSV {
        var file = SpreadsheetCSV(header: [
            "Received (\(time.zoneName))", "Kind", "Outcome", "Detail", "Guest", "Station", "Device", "Operator", "Account",
            "Scanned (\(time.zoneName))",
        ])
        for entry in entries {
            file.append([
                time.stamp(entry.at), entry.kind.rawValue, entry.outcome, entry.detail, entry.guestID, entry.station, entry.deviceID,
                entry.operatorName, entry.account, time.stamp(entry.scannedAt),
            ])
        }
        return file
    }

    static func conflicts(_ conflicts: [Conflict], time: WebTime) -> SpreadsheetCSV {
        var file = SpreadsheetCSV(header: [
            "Guest", "First admission (\(time.zoneName))", "First station", "First operator", "First device",
            "Second scan (\(time.zoneName))", "Second station", "Second operator", "Second device",
        ])
        for conflict in conflicts {
            file.append([
                conflict.guestID, time.stamp(conflict.first.at), conflict.first.station, conflict.first.by, conflict.first.deviceID,
                time.stamp(conflict.second.at), conflict.second.station, conflict.second.by, conflict.second.deviceID,
            ])
        }
        return file
    }
}
