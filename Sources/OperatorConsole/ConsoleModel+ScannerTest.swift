import CheckInCore
import Foundation

extension ConsoleModel {
    /// The scanner test: the last scan from any input (evdev, serial, the console's keyboard
    /// wedge, the camera), which input it came through and how fast its keys arrived. Set-up
    /// staff scan a ticket and see at once whether the scanner is read, and how.
    func drawScannerTest(into frame: inout ConsoleFrame, top: Int, bottom: Int) {
        let columns = size.columns
        frame.put(top, 1, "Test the scanner — scans here are shown, nobody is checked in", .bold)
        guard let scan = lastScan else {
            frame.put(top + 2, 3, "Scan a ticket (or any barcode) now.")
            frame.put(bottom, 1, "Any key returns to scanning.")
            return
        }
        let rows: [(String, String)] = [
            ("Code", TerminalText.clean(scan.code)),
            ("From", TerminalText.clean(scan.source.words)),
            ("Keys", scan.timing?.words ?? "no key timing (a camera or a line of input)"),
            ("At", Self.timeOfDay(scan.at)),
        ]
        for (offset, row) in rows.enumerated() where top + 2 + offset < bottom {
            frame.put(top + 2 + offset, 3, row.0 + ":", .bold, width: 6)
            frame.put(top + 2 + offset, 10, row.1, .normal, width: columns - 12)
        }
        if case .wedge = scan.source, top + 7 < bottom {
            frame.put(top + 7, 3, "A keyboard scanner on this terminal: keys less than wedge_max_key_gap_ms apart and Enter make a scan.",
                      .normal, width: columns - 4)
        }
        frame.put(bottom, 1, "Any key returns to scanning.")
    }

    /// "14:03:27" in the station's local time.
    static func timeOfDay(_ at: Timestamp) -> String {
        let seconds = at.milliseconds / 1000 + Int64(TimeZone.current.secondsFromGMT())
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", day / 3600, day % 3600 / 60, day % 60)
    }
}
