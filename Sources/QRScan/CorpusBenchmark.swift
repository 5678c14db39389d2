import Foundation

/// Scores decoders on a corpus with known payloads: ours, and `zbarimg` on the same frames in
/// the same run as the baseline.
public enum CorpusBenchmark {
    /// Decodes every frame of `truth` with a fresh ``QRDecoder`` state per frame (the frames
    /// are unrelated stills, so nothing a frame taught carries over to the next). JPEG decoding
    /// is not timed.
    ///
    /// With `plainZbarQR`, each frame is also scanned right after by one plain libzbar pass
    /// with only QR enabled (zbar's defaults otherwise): the baseline the decoder's CPU time
    /// per frame must stay under, measured on the same frames in the same minutes, so that
    /// load from other work weighs on both alike.
    ///
    /// With `heldFrames` above 1, each still is decoded that many times in a row as one stream
    /// (a ticket held in front of the camera) and the figures are the last frame's: what the
    /// decoder's memory across frames gains.
    public static func scoreDecoder(_ truth: CorpusTruth, configuration: DecoderConfiguration = DecoderConfiguration(),
                                    plainZbarQR: Bool = false, heldFrames: Int = 1, progress: (Int) -> Void = { _ in })
        throws(FrameSourceError) -> (decoder: CorpusScore, plainZbarQR: CorpusScore?) {
        let decoder = QRDecoder(configuration: configuration)
        let plain = plainZbarQR ? ZBarScanner(plainQR: ()) : nil
        var score = CorpusScore()
        var baseline = plain.map { _ in CorpusScore() }
        let clock = ContinuousClock()
        for (index, entry) in truth.entries.enumerated() {
            let frame = try StillImage.load(path: truth.path(of: entry))
            decoder.reset()
            var result = decoder.decode(frame)
            for _ in 1..<max(1, heldFrames) { result = decoder.decode(frame) }
            score.record(expected: entry.payloads, found: result.codes.texts, unreadable: result.codes.unreadableCount,
                         category: entry.category, size: frame.sizeLabel, milliseconds: result.elapsed.milliseconds,
                         cpuMilliseconds: result.cpuTime.milliseconds)
            if let plain {
                let start = clock.now
                let cpuStart = ThreadCPUTime.now()
                let symbols = plain.scan(frame)
                let cpu = (ThreadCPUTime.now() - cpuStart).milliseconds
                let ms = (clock.now - start).milliseconds
                let texts = symbols.compactMap { String(validating: $0.bytes, as: UTF8.self) }
                baseline?.record(expected: entry.payloads, found: texts, category: entry.category, size: frame.sizeLabel,
                                 milliseconds: ms, cpuMilliseconds: cpu)
            }
            progress(index + 1)
        }
        return (score, baseline)
    }

    /// Runs `zbarimg --xml` over the corpus (its own JPEG loading and default settings) for the
    /// detection figures; its per-frame decode time is measured in-process with libzbar at
    /// default settings, which is the same decoder call without process start and file loading.
    /// - Returns: the score, or `nil` when `zbarimg` is not installed.
    public static func scoreZbarimg(_ truth: CorpusTruth) throws(FrameSourceError) -> CorpusScore? {
        guard let found = runZbarimg(files: truth.entries.map { truth.path(of: $0) }) else { return nil }
        let scanner = ZBarScanner(zbarDefaults: ())
        let clock = ContinuousClock()
        var score = CorpusScore()
        for entry in truth.entries {
            let frame = try StillImage.load(path: truth.path(of: entry))
            let start = clock.now
            let cpuStart = ThreadCPUTime.now()
            _ = scanner.scan(frame)
            let cpu = (ThreadCPUTime.now() - cpuStart).milliseconds
            let ms = (clock.now - start).milliseconds
            score.record(expected: entry.payloads, found: found[truth.path(of: entry)] ?? [],
                         category: entry.category, size: frame.sizeLabel, milliseconds: ms, cpuMilliseconds: cpu)
        }
        return score
    }

    /// Payloads per file as `zbarimg --xml` reports them.
    static func runZbarimg(files: [String]) -> [String: [String]]? {
        guard let executable = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile) else {
            return nil
        }
        var result: [String: [String]] = [:]
        for batch in stride(from: 0, to: files.count, by: 100).map({ Array(files[$0..<min(files.count, $0 + 100)]) }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--xml", "-q", "--nodbus"] + batch
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            result.merge(parseZbarimgXML(String(decoding: data, as: UTF8.self))) { $1 }
        }
        return result
    }

    /// `<source href='F'> … <data><![CDATA[payload]]></data> … </source>` → F: [payloads].
    static func parseZbarimgXML(_ xml: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for source in xml.components(separatedBy: "<source href='").dropFirst() {
            guard let quote = source.firstIndex(of: "'") else { continue }
            let file = String(source[..<quote])
            var payloads: [String] = []
            for piece in source.components(separatedBy: "<![CDATA[").dropFirst() {
                if let end = piece.range(of: "]]></data>") { payloads.append(String(piece[..<end.lowerBound])) }
            }
            result[file] = payloads
        }
        return result
    }
}

extension [DecodedCode] {
    /// The payloads that passed hygiene, as text.
    public var texts: [String] {
        compactMap { if case .text(let text) = $0.payload { text } else { nil } }
    }

    /// How many codes were refused by payload hygiene.
    public var unreadableCount: Int {
        count { if case .unreadable = $0.payload { true } else { false } }
    }
}

extension Duration {
    /// This duration in (fractional) milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
