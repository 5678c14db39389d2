import Foundation
import Logging
import Synchronization

/// Log lines into a file of the data directory while the console owns the terminal (a log
/// line written over the curses screen would garble what the staff read): `logs/kiosk.log`,
/// rotated at ``maximumBytes`` to `kiosk.log.1` … `.N`, so a long event day cannot fill the
/// disk. Mode 0600. Callers log ids, never names or e-mails.
public struct RotatingFileLogHandler: LogHandler {
    final class Sink: Sendable {
        let url: URL
        let maximumBytes: Int
        let keep: Int
        private let state = Mutex<(handle: FileHandle?, size: Int)>((nil, 0))

        init(url: URL, maximumBytes: Int, keep: Int) {
            self.url = url
            self.maximumBytes = maximumBytes
            self.keep = keep
        }

        func write(_ line: String) {
            let data = Data(line.utf8)
            state.withLock { state in
                if state.handle == nil || state.size + data.count > maximumBytes {
                    if let handle = state.handle {
                        try? handle.close()
                        rotate()
                    }
                    state = open()
                }
                state.handle?.write(data)
                state.size += data.count
            }
        }

        private func open() -> (FileHandle?, Int) {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            let fd = Glibc.open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return (nil, 0) }
            var info = stat()
            fstat(fd, &info)
            return (FileHandle(fileDescriptor: fd, closeOnDealloc: true), Int(info.st_size))
        }

        private func rotate() {
            let path = url.path
            unlink("\(path).\(keep)")
            if keep > 1 {
                for index in stride(from: keep - 1, through: 1, by: -1) { rename("\(path).\(index)", "\(path).\(index + 1)") }
            }
            rename(path, "\(path).1")
        }
    }

    let label: String
    let sink: Sink
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler factory for `LoggingSystem.bootstrap`, all labels into one file.
    public static func factory(directory: URL, level: Logger.Level, maximumBytes: Int = 1_048_576, keep: Int = 3) -> @Sendable (String) -> any LogHandler {
        let sink = Sink(url: directory.appendingPathComponent("kiosk.log"), maximumBytes: maximumBytes, keep: keep)
        return { label in RotatingFileLogHandler(label: label, sink: sink, logLevel: level) }
    }

    init(label: String, sink: Sink, logLevel: Logger.Level) {
        self.label = label
        self.sink = sink
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let fields = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        sink.write("\(LogTime.nowText()) \(event.level) \(label): \(event.message)\(fields)\n")
    }
}

private enum LogTime {
    static func nowText() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
