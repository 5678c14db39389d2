import CCups

/// Asking the printer itself, at the device URI of its CUPS queue.
///
/// cupsd learns that a network printer is gone only while a job tries to reach it, and forgets
/// it when the job is canceled: an idle queue whose printer is unplugged says "idle". And its
/// "completed" is not proof: the ipp backend of CUPS 2.4 reports a job the printer aborted as
/// completed when its main thread, not its monitor thread, is the first to see the abort (the
/// printer failed the job before the monitor's first poll; measured: 8 of 40 aborted jobs on a
/// loaded machine), and the same happens when the printer dies with the job in it and the
/// backend's next poll fails. The printer's own job history says how the job really ended.
extension CupsClient {
    /// The printer's own state, or `nil` when its URI cannot be asked (usb, dnssd, file…).
    /// `socket://` printers are only connected to: reachable or not.
    public func probeDevice(uri: String, timeout: Duration = .milliseconds(1500)) async -> DeviceStatus? {
        try? await blocking { _ throws(PrintError) in Device.probe(uri, timeout: timeout) }
    }

    /// What the printer itself says about the job titled `title` (the newest of that title in
    /// its history).
    public func deviceJobAnswer(uri: String, title: String) async -> PrinterJobAnswer {
        (try? await blocking { _ throws(PrintError) in Device.jobAnswer(uri, title: title) }) ?? .cannotAsk
    }
}

/// Blocking libcups calls to a printer's own IPP service; run on ``CupsClient``'s queue.
private enum Device {
    struct Target {
        var scheme: String
        var host: String
        var port: Int32
        var resource: String
    }

    static func target(_ uri: String) -> Target? {
        var scheme = [CChar](repeating: 0, count: 32), user = [CChar](repeating: 0, count: 256)
        var host = [CChar](repeating: 0, count: 256), resource = [CChar](repeating: 0, count: 1024)
        var port: Int32 = 0
        let status = httpSeparateURI(HTTP_URI_CODING_ALL, uri, &scheme, 32, &user, 256, &host, 256, &port, &resource, 1024)
        guard status.rawValue >= HTTP_URI_STATUS_OK.rawValue else { return nil }
        let target = Target(scheme: String(cString: scheme), host: String(cString: host), port: port,
                            resource: String(String(cString: resource).prefix { $0 != "?" }))
        return ["ipp", "ipps", "http", "https", "socket"].contains(target.scheme) && !target.host.isEmpty ? target : nil
    }

    static func connect(_ target: Target, timeout: Duration) -> OpaquePointer? {
        let encryption = ["ipps", "https"].contains(target.scheme) ? HTTP_ENCRYPTION_ALWAYS : HTTP_ENCRYPTION_IF_REQUESTED
        return httpConnect2(target.host, target.port, nil, AF_UNSPEC, encryption, 1, Int32(timeout / .milliseconds(1)), nil)
    }

    static func probe(_ uri: String, timeout: Duration) -> DeviceStatus? {
        guard let target = target(uri) else { return nil }
        guard let http = connect(target, timeout: timeout) else { return DeviceStatus(reachable: false) }
        defer { httpClose(http) }
        guard target.scheme != "socket" else { return DeviceStatus(reachable: true) }
        let request = ippNewRequest(IPP_OP_GET_PRINTER_ATTRIBUTES)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, uri)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        Connection.addRequested(request, ["printer-state", "printer-state-reasons", "printer-state-message"])
        // It answered the connection: reachable, even when it does not speak IPP properly.
        guard let response = cupsDoRequest(http, request, target.resource) else { return DeviceStatus(reachable: true) }
        defer { ippDelete(response) }
        let state: PrinterStatus.State = switch ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map({ ippGetInteger($0, 0) }) {
        case 3: .idle
        case 4: .processing
        case 5: .stopped
        default: .unknown
        }
        return DeviceStatus(reachable: true, state: state, reasons: Connection.strings(response, "printer-state-reasons"),
                            message: Connection.strings(response, "printer-state-message").first ?? "")
    }

    static func jobAnswer(_ uri: String, title: String) -> PrinterJobAnswer {
        guard let target = target(uri), target.scheme != "socket" else { return .cannotAsk }
        guard let http = connect(target, timeout: .milliseconds(1500)) else { return .unreachable }
        defer { httpClose(http) }
        let request = ippNewRequest(IPP_OP_GET_JOBS)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, uri)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "which-jobs", nil, "all")
        Connection.addRequested(request, ["job-id", "job-name", "job-state"])
        guard let response = cupsDoRequest(http, request, target.resource) else { return .noRecord }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < 0x0400 else { return .noRecord }
        // Job groups are runs of job attributes separated by a nameless attribute.
        var newest: (id: Int32, state: Int32)?
        var id: Int32 = 0, name = "", state: Int32 = 0
        func close() {
            if name == title, state > 0, id >= newest?.id ?? Int32.min { newest = (id, state) }
            id = 0; name = ""; state = 0
        }
        var attribute = ippFirstAttribute(response)
        while let current = attribute {
            if ippGetGroupTag(current) != IPP_TAG_JOB || ippGetName(current) == nil {
                close()
            } else {
                switch String(cString: ippGetName(current)) {
                case "job-id": id = ippGetInteger(current, 0)
                case "job-name": name = ippGetString(current, 0, nil).map { String(cString: $0) } ?? ""
                case "job-state": state = ippGetInteger(current, 0)
                default: break
                }
            }
            attribute = ippNextAttribute(response)
        }
        close()
        return newest.flatMap { JobStatus.State(rawValue: Int($0.state)) }.map(PrinterJobAnswer.ended) ?? .noRecord
    }
}
