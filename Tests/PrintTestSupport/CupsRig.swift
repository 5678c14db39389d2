import Foundation
import KioskTestSupport

/// A private cupsd on loopback with one simulated IPP Everywhere printer per queue, started by
/// Kiosk/cups-test-rig.sh in a temporary directory and stopped by ``stop()``.
public struct CupsRig: Sendable {
    public let directory: TemporaryDirectory
    /// `127.0.0.1:PORT` of the private cupsd.
    public let server: String

    public static let script = BuiltProducts.packageRoot.appendingPathComponent("Kiosk/cups-test-rig.sh")

    public init(queues: [String] = ["badge"]) throws {
        directory = TemporaryDirectory("cups-rig")
        let result = try run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "start", directory.path] + queues, timeout: 60)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last(where: { $0.hasPrefix("CUPS_SERVER=") }) else {
            _ = try? run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "stop", directory.path])
            throw RigError(message: "cups rig did not start: \(result.stderr)")
        }
        server = String(line.dropFirst("CUPS_SERVER=".count))
    }

    public func stop() {
        // Signal the rig's daemons from here, by the pids the rig recorded.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files where file.hasSuffix(".pid") {
            if let text = try? String(contentsOf: directory.appending(file), encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                // SIGKILL: daemons spawned from a test's dispatch thread inherit its blocked
                // signal mask (SIGTERM included), and ippeveprinter ignores SIGTERM anyway.
                // Their state lives in the temporary directory removed below.
                kill(pid, SIGKILL)
            }
        }
        directory.remove()
    }

    /// Runs a CUPS client command (cupsdisable, cupsreject, lp…) against this cupsd.
    @discardableResult
    public func cups(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, environment: ["CUPS_SERVER": server])
    }

    /// What the simulated printer of `queue` does with the next jobs: ok, hang, fail, media-empty.
    public func setMode(_ queue: String, _ mode: String) throws {
        try mode.write(to: directory.appending("mode/\(queue)"), atomically: true, encoding: .utf8)
    }

    /// Kills the simulated printer behind `queue` (the queue stays in cupsd).
    public func killPrinter(_ queue: String) throws {
        let pid = try String(contentsOf: directory.appending("printer-\(queue).pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        kill(Int32(pid) ?? 0, SIGKILL)
        try? FileManager.default.removeItem(at: directory.appending("printer-\(queue).pid"))
        // SIGKILL is delivered when the kernel gets to it: on a loaded machine the printer once
        // still answered the station's probe right after, and the test waited for its print
        // timeout. Off means nothing listens on its port any more.
        if let port = Int(try String(contentsOf: directory.appending("printer-\(queue).port"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)) {
            for _ in 0..<100 where Self.accepts(port: port) { usleep(50_000) }
        }
    }

    /// Whether something accepts TCP connections on `port` of loopback.
    static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Starts the simulated printer behind `queue` again on its port: to cupsd, the printer is back.
    public func restartPrinter(_ queue: String) throws {
        let result = try run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "restart-printer", directory.path, queue], timeout: 30)
        guard result.status == 0 else { throw RigError(message: "printer \(queue) did not restart: \(result.stderr)") }
    }

    /// The titles of the documents the printer of `queue` printed, one per print, in order (a
    /// badge printed twice under one title is there twice; ``outputs(_:)`` keeps the last file).
    public func printLog(_ queue: String) -> [String] {
        let text = (try? String(contentsOf: directory.appending("out/\(queue).printed"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The documents the printer of `queue` received, by job title.
    public func outputs(_ queue: String) -> [URL] {
        let folder = directory.appending("out/\(queue)")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "pdf" }
    }
}

public struct RigError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}

/// Tools from poppler-utils and zbar-tools, run on a rendered or printed badge.
public enum PDFTools {
    public static func text(_ pdf: URL) throws -> String {
        try run(URL(fileURLWithPath: "/usr/bin/pdftotext"), ["-enc", "UTF-8", pdf.path, "-"]).stdout
    }

    /// Page size in points, from pdfinfo ("Page size: 288 x 216 pts").
    public static func pageSize(_ pdf: URL) throws -> (width: Double, height: Double)? {
        let info = try run(URL(fileURLWithPath: "/usr/bin/pdfinfo"), [pdf.path]).stdout
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Page size:") }) else { return nil }
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }

    /// The QR codes zbar finds in the first page rasterized at 200 dpi.
    public static func qrCodes(_ pdf: URL, in directory: TemporaryDirectory) throws -> [String] {
        let prefix = directory.appending("page-\(UUID().uuidString.prefix(6))").path
        _ = try run(URL(fileURLWithPath: "/usr/bin/pdftoppm"), ["-r", "200", "-gray", "-singlefile", pdf.path, prefix])
        let result = try run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", prefix + ".pgm"])
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Text without whitespace and hyphens: wrapped lines compare equal to the one-line name
    /// (pdftotext joins a line broken after a hyphen and drops the hyphen).
    public static func squeezed(_ text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) && $0 != "-" }.map(Character.init))
    }
}
