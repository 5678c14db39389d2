import CCups
import Dispatch
import Foundation

/// A CUPS client: lists queues, submits PDF badges, and asks for job and printer state.
///
/// libcups blocks on IPP round trips, so every call runs on this client's own serial
/// dispatch queue, never on Swift's cooperative pool (two threads on a station). The queue also
/// confines the libcups connection and libcups' per-thread globals (server, last error).
/// ```swift
/// let cups = CupsClient(server: "127.0.0.1:6310")   // nil: $CUPS_SERVER, else the system's
/// let id = try await cups.submit(pdf: data, queue: "badge", title: "Badge ABC1", media: "w288h216")
/// let job = try await cups.jobStatus(queue: "badge", id: id)
/// ```
public final class CupsClient: Sendable {
    /// `host:port` or a socket path; `nil` follows `CUPS_SERVER` and the system configuration.
    public let server: String?
    private let queue = DispatchQueue(label: "kiosk.cups")
    private let connection: Connection

    public init(server: String? = nil) {
        self.server = server.flatMap { $0.isEmpty ? nil : $0 }
        connection = Connection(server: self.server)
    }

    /// Runs blocking libcups work on the client's queue.
    func blocking<T: Sendable>(_ work: @escaping @Sendable (Connection) throws(PrintError) -> T) async throws(PrintError) -> T {
        let connection = self.connection
        let result: Result<T, PrintError> = await withCheckedContinuation { continuation in
            queue.async {
                // libcups keeps the server and port per thread, and this queue may run on any
                // thread (which another client may have pointed elsewhere): set them every time.
                connection.selectServer()
                do throws(PrintError) { continuation.resume(returning: .success(try work(connection))) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Creates a job, sends the PDF and closes the document: the job is then CUPS's.
    /// `media` must describe the PDF's page size, or CUPS rotates and shrinks the badge.
    /// - Returns: the CUPS job id.
    public func submit(pdf: Data, queue name: String, title: String, media: String) async throws(PrintError) -> Int {
        let id = try await createJob(queue: name, title: title, media: media)
        try await sendDocument(pdf, queue: name, jobID: id)
        return id
    }

    /// First half of a submission: CUPS allocates the job (no document yet). The spooler records
    /// the id before sending the document, so a crash in between cannot print a badge twice.
    public func createJob(queue name: String, title: String, media: String) async throws(PrintError) -> Int {
        try await blocking { connection throws(PrintError) in
            let http = try connection.http()
            var options: UnsafeMutablePointer<cups_option_t>?
            var count: Int32 = 0
            count = cupsAddOption("media", media, count, &options)
            defer { cupsFreeOptions(count, options) }
            let id = cupsCreateJob(http, name, title, count, options)
            guard id > 0 else { throw connection.lastError(queue: name, http: http) }
            return Int(id)
        }
    }

    /// Second half of a submission: streams the PDF into job `jobID`.
    public func sendDocument(_ pdf: Data, queue name: String, jobID: Int) async throws(PrintError) {
        try await blocking { connection throws(PrintError) in
            let http = try connection.http()
            guard cupsStartDocument(http, name, Int32(jobID), "badge.pdf", CUPS_FORMAT_PDF, 1) == HTTP_STATUS_CONTINUE else {
                throw connection.lastError(queue: name, http: http)
            }
            let written = pdf.withUnsafeBytes { bytes in
                cupsWriteRequestData(http, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
            }
            guard written == HTTP_STATUS_CONTINUE else {
                _ = cupsFinishDocument(http, name)
                throw connection.lastError(queue: name, http: http)
            }
            guard cupsFinishDocument(http, name) == IPP_STATUS_OK else { throw connection.lastError(queue: name, http: http) }
        }
    }

    /// Get-Job-Attributes; `nil` when CUPS no longer knows the job (its history was purged).
    public func jobStatus(queue name: String, id: Int) async throws(PrintError) -> JobStatus? {
        try await blocking { connection throws(PrintError) in
            let http = try connection.http()
            let request = ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES)
            ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, "ipp://localhost/printers/\(name)")
            ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", Int32(id))
            ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
            Connection.addRequested(request, ["job-id", "job-state", "job-state-reasons", "job-printer-state-message"])
            guard let response = cupsDoRequest(http, request, "/") else {
                if cupsLastError() == IPP_STATUS_ERROR_NOT_FOUND { return nil }
                throw connection.lastError(queue: name, http: http)
            }
            defer { ippDelete(response) }
            let status = ippGetStatusCode(response)
            if status == IPP_STATUS_ERROR_NOT_FOUND { return nil }
            guard status.rawValue < 0x0400 else { throw connection.lastError(queue: name, http: http) }
            let state = ippFindAttribute(response, "job-state", IPP_TAG_ENUM).map { Int(ippGetInteger($0, 0)) } ?? 0
            return JobStatus(
                id: id, state: JobStatus.State(rawValue: state) ?? .pending,
                reasons: Connection.strings(response, "job-state-reasons"),
                printerMessage: Connection.strings(response, "job-printer-state-message").first ?? "")
        }
    }

    /// Get-Printer-Attributes of one queue.
    public func printerStatus(queue name: String) async throws(PrintError) -> PrinterStatus {
        try await blocking { connection throws(PrintError) in try connection.printerStatus(name) }
    }

    /// Every queue the server has, with its state, reasons and media.
    public func printers() async throws(PrintError) -> [PrinterStatus] {
        try await blocking { connection throws(PrintError) in
            let http = try connection.http()
            var dests: UnsafeMutablePointer<cups_dest_t>?
            let count = cupsGetDests2(http, &dests)
            defer { cupsFreeDests(count, dests) }
            if count == 0 && cupsLastError().rawValue >= 0x0400 && cupsLastError() != IPP_STATUS_ERROR_NOT_FOUND {
                throw connection.lastError(queue: "", http: http)
            }
            var names: [String] = []
            for index in 0..<Int(count) {
                guard let dest = dests?[index], dest.instance == nil else { continue }
                names.append(String(cString: dest.name))
            }
            return try names.sorted().map { name throws(PrintError) in try connection.printerStatus(name) }
        }
    }

    /// The queue's name for media of this size (either orientation), so CUPS neither rotates nor
    /// shrinks the badge; `nil` when the queue has no such media. Looked up once per queue and size.
    public func media(queue name: String, widthMM: Double, heightMM: Double) async throws(PrintError) -> String? {
        try await blocking { connection throws(PrintError) in try connection.media(name, widthMM, heightMM) }
    }

    /// Cancels a job (before failing over to another queue, so the badge cannot come out twice).
    public func cancel(queue name: String, id: Int) async {
        _ = try? await blocking { connection throws(PrintError) in
            let http = try connection.http()
            _ = cupsCancelJob2(http, name, Int32(id), 0)
        }
    }
}

/// The libcups connection, used only on ``CupsClient``'s serial queue (hence `@unchecked`).
final class Connection: @unchecked Sendable {
    let server: String?
    private var handle: OpaquePointer?

    init(server: String?) { self.server = server }

    deinit { if let handle { httpClose(handle) } }

    func selectServer() { cupsSetServer(server) }

    /// The open connection, reconnecting when the last one failed.
    func http() throws(PrintError) -> OpaquePointer {
        if let handle {
            if httpGetFd(handle) >= 0 && httpError(handle) == 0 { return handle }
            httpClose(handle)
            self.handle = nil
        }
        let host = String(cString: cupsServer())
        let port = ippPort()
        guard let handle = httpConnect2(host, port, nil, AF_UNSPEC, cupsEncryption(), 1, 5000, nil) else {
            throw .serverUnreachable("\(host)\(host.hasPrefix("/") ? "" : ":\(port)")")
        }
        self.handle = handle
        return handle
    }

    func lastError(queue: String, http: OpaquePointer) -> PrintError {
        let status = cupsLastError()
        let message = String(cString: cupsLastErrorString())
        if httpError(http) != 0 || status == IPP_STATUS_ERROR_SERVICE_UNAVAILABLE && message.contains("connect") {
            if let handle { httpClose(handle); self.handle = nil }
            return .serverUnreachable(message)
        }
        switch status {
        case IPP_STATUS_ERROR_NOT_ACCEPTING_JOBS: return .notAccepting(queue)
        case IPP_STATUS_ERROR_NOT_FOUND: return .noSuchQueue(queue)
        case IPP_STATUS_ERROR_INTERNAL where message.lowercased().contains("connection"):
            if let handle { httpClose(handle); self.handle = nil }
            return .serverUnreachable(message)
        default: return .submitFailed(message)
        }
    }

    private var mediaCache: [String: String?] = [:]

    func media(_ name: String, _ widthMM: Double, _ heightMM: Double) throws(PrintError) -> String? {
        let key = "\(name) \(widthMM) \(heightMM)"
        if let cached = mediaCache[key] { return cached }
        let http = try http()
        guard let dest = cupsGetNamedDest(http, name, nil) else { throw .noSuchQueue(name) }
        defer { cupsFreeDests(1, dest) }
        guard let info = cupsCopyDestInfo(http, dest) else { throw lastError(queue: name, http: http) }
        defer { cupsFreeDestInfo(info) }
        var found: String?
        // IPP sizes are in hundredths of millimetres; labels may be loaded either way round.
        // Borderless first: label stock is, and a bordered size would shrink the badge.
        for (width, length, flags) in [(widthMM, heightMM, 1), (heightMM, widthMM, 1), (widthMM, heightMM, 0), (heightMM, widthMM, 0)] where found == nil {
            var size = cups_size_t()
            if cupsGetDestMediaBySize(http, dest, info, Int32((width * 100).rounded()), Int32((length * 100).rounded()), UInt32(flags), &size) != 0 {
                let matches = abs(Double(size.width) - width * 100) < 100 && abs(Double(size.length) - length * 100) < 100
                if matches {
                    found = withUnsafeBytes(of: size.media) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
                }
            }
        }
        mediaCache[key] = found
        return found
    }

    func printerStatus(_ name: String) throws(PrintError) -> PrinterStatus {
        let http = try http()
        let request = ippNewRequest(IPP_OP_GET_PRINTER_ATTRIBUTES)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, "ipp://localhost/printers/\(name)")
        Self.addRequested(request, ["printer-state", "printer-state-reasons", "printer-state-message", "printer-is-accepting-jobs",
                                    "media-default", "media-supported", "device-uri"])
        guard let response = cupsDoRequest(http, request, "/") else { throw lastError(queue: name, http: http) }
        defer { ippDelete(response) }
        let status = ippGetStatusCode(response)
        if status == IPP_STATUS_ERROR_NOT_FOUND { throw .noSuchQueue(name) }
        guard status.rawValue < 0x0400 else { throw lastError(queue: name, http: http) }
        let state: PrinterStatus.State = switch ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map({ ippGetInteger($0, 0) }) {
        case 3: .idle
        case 4: .processing
        case 5: .stopped
        default: .unknown
        }
        return PrinterStatus(
            queue: name, state: state, reasons: Self.strings(response, "printer-state-reasons"),
            message: Self.strings(response, "printer-state-message").first ?? "",
            acceptingJobs: ippFindAttribute(response, "printer-is-accepting-jobs", IPP_TAG_BOOLEAN).map { ippGetBoolean($0, 0) != 0 } ?? true,
            mediaDefault: Self.strings(response, "media-default").first,
            mediaSupported: Self.strings(response, "media-supported"),
            deviceURI: Self.strings(response, "device-uri").first)
    }

    /// All string values of an attribute, copied out of the response.
    static func strings(_ response: OpaquePointer, _ name: String) -> [String] {
        guard let attribute = ippFindAttribute(response, name, IPP_TAG_ZERO) else { return [] }
        return (0..<ippGetCount(attribute)).compactMap { index in ippGetString(attribute, index, nil).map { String(cString: $0) } }
    }

    static func addRequested(_ request: OpaquePointer?, _ names: [String]) {
        var attribute = ippAddStrings(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", Int32(names.count), nil, nil)
        for (index, name) in names.enumerated() { ippSetString(request, &attribute, Int32(index), name) }
    }
}
