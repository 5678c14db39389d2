/// A CUPS queue's state as Get-Printer-Attributes reports it.
public struct PrinterStatus: Sendable, Hashable {
    public enum State: String, Sendable { case idle, processing, stopped, unknown }
    public var queue: String
    public var state: State
    public var reasons: [String]
    public var message: String
    public var acceptingJobs: Bool
    public var mediaDefault: String?
    public var mediaSupported: [String]
    public var deviceURI: String?
    /// The printer itself, asked directly (``CupsClient/probeDevice(uri:)``) while no job is out:
    /// cupsd knows a network printer is gone only while a job is trying to reach it.
    public var device: DeviceStatus?

    public init(queue: String, state: State, reasons: [String] = [], message: String = "", acceptingJobs: Bool = true,
                mediaDefault: String? = nil, mediaSupported: [String] = [], deviceURI: String? = nil, device: DeviceStatus? = nil) {
        self.device = device
        self.queue = queue
        self.state = state
        self.reasons = reasons
        self.message = message
        self.acceptingJobs = acceptingJobs
        self.mediaDefault = mediaDefault
        self.mediaSupported = mediaSupported
        self.deviceURI = deviceURI
    }

    /// Reasons without the `-report`/`-warning`/`-error` severity suffix, `none` left out.
    public var baseReasons: [String] { Self.base(reasons) }

    static func base(_ reasons: [String]) -> [String] {
        reasons.filter { $0 != "none" }.map { reason in
            for suffix in ["-report", "-warning", "-error"] where reason.hasSuffix(suffix) { return String(reason.dropLast(suffix.count)) }
            return reason
        }
    }

    /// cupsd's message when the ipp backend cannot reach the printer: an offline printer
    /// produces no state reason, only this message, while its job stays `processing`.
    public var printerUnreachable: Bool {
        message.contains("may not exist or is unavailable") || message.lowercased().contains("unable to connect")
            || baseReasons.contains("offline") || baseReasons.contains("connecting-to-device") && message.contains("not")
    }

    /// A condition that makes a "completed" job unproven: the printer lost the job's history,
    /// was unreachable, or reported a hardware fault while the job was out.
    public var fault: String? {
        let base = baseReasons
        if base.contains("cups-ipp-missing-job-history") { return "cups-ipp-missing-job-history" }
        if printerUnreachable { return "offline" }
        for reason in ["media-jam", "door-open", "cover-open", "other"] where base.contains(reason) { return reason }
        return nil
    }

    /// What the operator should know about this printer, in plain words; `nil` when all is well.
    /// Faults first (see ``health``), then what is worth knowing but stops nothing.
    public var operatorMessage: String? {
        if let fault = health.fault { return fault.sentence }
        let base = Set(baseReasons)
        if base.contains("cups-ipp-missing-job-history") { return "Badge printer lost track of the last job: check whether the badge came out" }
        if base.contains("marker-supply-low") || base.contains("toner-low") { return "Badge printer ribbon or ink is low" }
        if base.contains("media-low") { return "Badge printer labels are running low" }
        return nil
    }
}

/// A job's state as Get-Job-Attributes reports it.
public struct JobStatus: Sendable, Hashable {
    public enum State: Int, Sendable {
        case pending = 3, held = 4, processing = 5, stopped = 6, canceled = 7, aborted = 8, completed = 9
        public var isFinal: Bool { rawValue >= 7 }
    }
    public var id: Int
    public var state: State
    public var reasons: [String]
    public var printerMessage: String

    public init(id: Int, state: State, reasons: [String] = [], printerMessage: String = "") {
        self.id = id
        self.state = state
        self.reasons = reasons
        self.printerMessage = printerMessage
    }
}
