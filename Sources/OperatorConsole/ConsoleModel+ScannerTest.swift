import CheckInCore
import Foundation

extension ConsoleModel {
    /// The scanner test: the last scan from any input (evdev, serial, the console's keyboard
    /// wedge, the camera), which input it came through and how fast its keys arrived. Set-up
    /// staff scan a ticket and see at once whether the scanner is read, and how.
    func drawScannerTest(into body: inout ConsoleBody) {
        let columns = size.columns
        body.wrapped("Test the scanner — scans here are shown, nobody is checked in", .bold, columns: columns)
        guard let scan = lastScan else {
            body.add("")
            body.add("Scan a ticket (or any barcode) now.", at: 3)
            body.add("")
            body.add("Any key returns to scanning.")
            return
        }
        body.add("")
        let rows: [(String, String)] = [
            ("Code", TerminalText.clean(scan.code)),
            ("From", TerminalText.clean(scan.source.words)),
            ("Keys", scan.timing?.words ?? "no key timing (a camera or a line of input)"),
            ("At", Self.timeOfDay(scan.at)),
        ]
        for row in rows {
            body.add(row.0 + ":", at: 3, .bold, width: 6)
            body.addToLastRow(row.1, at: 10, width: columns - 12)
        }
        if case .wedge = scan.source {
            body.wrapped("A keyboard scanner on this terminal: keys less than wedge_max_key_gap_ms apart and Enter make a scan.",
                         at: 3, columns: columns)
        }
        body.add("Any key returns to scanning.")
    }

    /// "14:03:27" in the station's local time.
    static func timeOfDay(_ at: Timestamp) -> String {
        let seconds = at.milliseconds / 1000 + Int64(TimeZone.current.secondsFromGMT())
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", day / 3600, day % 3600 / 60, day % 60)
    }
}
