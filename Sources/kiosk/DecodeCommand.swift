import ArgumentParser
import CheckInCore
import Foundation
import KioskStore
import QRScan

struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode QR codes in still frames (PGM or JPEG), with timings; with --truth, score a corpus.",
        discussion: """
            With --truth truth.json the frames are the corpus listed there (FRAME arguments are \
            not needed) and the output is the score: detection per category and overall, \
            misreads, false positives, decode ms (wall) and cpu_ms (all decoding threads) \
            p50/p95 per frame size, and the same figures for zbarimg and for one plain libzbar \
            QR-only pass per frame, run on the same frames in the same run. Use a release build \
            for timings.
            """)

    @Argument(help: "Frame files (PGM P5/P2 or JPEG).")
    var frames: [String] = []

    @Option(help: "A corpus truth.json (file -> {category, payloads}); scores the decoder against it.")
    var truth: String?

    @Option(help: "Cascade steps in order (comma-separated: roi, located, retries, original, downscaled, binarized, binarized_full, inverted, upscaled).")
    var cascade: String?

    @Option(help: "Decoding threads per frame (1 or 2).")
    var threads: Int?

    @Option(help: "With --truth: decode each frame this many times in a row as one stream (a held ticket); figures are the last frame's.")
    var held: Int = 1

    @Option(help: "Time budget per 640x480 frame in milliseconds (scaled by pixel count).")
    var budgetMs: Double?

    @Option(help: "zbar scan density on full-size steps (1 = every line, 2 = every other line).")
    var density: Int?

    @Flag(help: "Turn off zbar's own inverted-code retry.")
    var noZbarInverted = false

    @Flag(help: "With --truth: skip the zbarimg baseline.")
    var noBaseline = false

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    func validate() throws {
        if truth == nil && frames.isEmpty { throw ValidationError("Give frame files, or --truth truth.json") }
        if let cascade, (try? Self.parseCascade(cascade)) == nil {
            throw ValidationError("--cascade takes steps from: \(CascadeStep.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    static func parseCascade(_ text: String) throws -> [CascadeStep] {
        try text.split(separator: ",").map {
            guard let step = CascadeStep(rawValue: $0.trimmingCharacters(in: .whitespaces)) else { throw ValidationError("unknown step \($0)") }
            return step
        }
    }

    var decoderConfiguration: DecoderConfiguration {
        var config = DecoderConfiguration()
        if let cascade, let steps = try? Self.parseCascade(cascade) { config.cascade = steps }
        if let budgetMs { config.budgetPerVGA = .microseconds(Int(budgetMs * 1000)) }
        if noZbarInverted { config.zbarTestsInverted = false }
        if let density { config.fullSizeDensity = max(1, min(4, density)) }
        if let threads { config.threads = max(1, min(2, threads)) }
        return config
    }

    func run() async throws {
        CommandOutput.bootstrapLogging()
        try await CommandOutput.run(json: json) {
            do {
                if let truth { try scoreCorpus(truth) } else { try decodeFrames() }
            } catch let error as FrameSourceError {
                throw CommandFailure(error.description, exitCode: ExitStatus.badInput)
            }
            return 0
        }
    }

    private func decodeFrames() throws(FrameSourceError) {
        let decoder = QRDecoder(configuration: decoderConfiguration)
        var results: [JSONValue] = []
        for path in frames {
            let frame = try StillImage.load(path: path)
            decoder.reset()
            let result = decoder.decode(frame)
            let codes: [JSONValue] = result.codes.map { code in
                switch code.payload {
                case .text(let text): ["payload": .string(text), "symbology": code.symbology == .qr ? "qr" : "code128"]
                case .unreadable(let reason): ["unreadable": .string(reason.rawValue)]
                }
            }
            results.append([
                "file": .string(path), "width": .int(frame.width), "height": .int(frame.height),
                "codes": .array(codes), "ms": .double(result.elapsed.milliseconds),
                "cpu_ms": .double(result.cpuTime.milliseconds),
                "step": .optional(result.step?.rawValue),
            ])
            if !json {
                let texts = result.codes.map { code in
                    switch code.payload {
                    case .text(let text): Sanitized.text(text)
                    case .unreadable(let reason): "<unreadable code: \(reason.rawValue)>"
                    }
                }
                let found = texts.isEmpty ? "no code" : texts.joined(separator: " | ")
                print("\(Sanitized.text(path)): \(found) (\(String(format: "%.1f", result.elapsed.milliseconds)) ms)")
            }
        }
        if json { CommandOutput.printJSON(["frames": .array(results)]) }
    }

    private func scoreCorpus(_ path: String) throws(FrameSourceError) {
        let corpus = try CorpusTruth(path: path)
        let (ours, plainZbarQR) = try CorpusBenchmark.scoreDecoder(corpus, configuration: decoderConfiguration,
                                                                   plainZbarQR: !noBaseline, heldFrames: held)
        let baseline = noBaseline ? nil : try CorpusBenchmark.scoreZbarimg(corpus)
        if !noBaseline && baseline == nil { CommandOutput.printError("kiosk: zbarimg not found (Debian zbar-tools): no baseline") }
        var document = ours.jsonMembers
        var ratio: [String: JSONValue] = [:]
        if let baseline {
            document["zbarimg"] = .object(baseline.jsonMembers)
            ratio["rate"] = .double(ours.overall.rate / max(baseline.overall.rate, 1e-9))
            ratio["ms"] = .object(ours.milliseconds.keys.reduce(into: [:]) { result, size in
                let mine = CorpusScore.percentile(ours.milliseconds[size] ?? [], 50)
                let theirs = CorpusScore.percentile(baseline.milliseconds[size] ?? [], 50)
                result[size] = ["p50_speedup": .double(theirs / mine)]
            })
        }
        if let plainZbarQR {
            document["zbar_qr"] = .object(plainZbarQR.jsonMembers)
            // The CPU target: p95 per frame size no higher than one plain QR-only zbar pass.
            ratio["cpu_p95_vs_zbar_qr"] = .object(ours.cpuMilliseconds.keys.reduce(into: [:]) { result, size in
                let mine = CorpusScore.percentile(ours.cpuMilliseconds[size] ?? [], 95)
                let theirs = CorpusScore.percentile(plainZbarQR.cpuMilliseconds[size] ?? [], 95)
                result[size] = .double(mine / theirs)
            })
        }
        if !ratio.isEmpty { document["ratio"] = .object(ratio) }
        document["load_average"] = .string(LoadAverage.current)
        document["cascade"] = .array(decoderConfiguration.cascade.map { .string($0.rawValue) })
        document["threads"] = .int(decoderConfiguration.threads)
        document["held_frames"] = .int(held)
        if json {
            CommandOutput.printJSON(.object(document))
        } else {
            print(ours.summary(title: "kiosk decoder"))
            if let plainZbarQR { print(plainZbarQR.summary(title: "plain zbar, QR only")) }
            if let baseline { print(baseline.summary(title: "zbarimg")) }
            print("load average: \(LoadAverage.current)")
        }
    }
}

enum LoadAverage {
    static var current: String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
    }
}

extension CorpusScore {
    var jsonMembers: [String: JSONValue] {
        func tally(_ t: Tally) -> JSONValue {
            ["positives": .int(t.positives), "detected": .int(t.detected), "rate": .double(t.rate),
             "misreads": .int(t.misreads), "false_positives": .int(t.falsePositives),
             "negatives": .int(t.negatives), "unreadable": .int(t.unreadable)]
        }
        return [
            "overall": tally(overall),
            "categories": .object(categories.mapValues(tally)),
            "ms": .object(milliseconds.mapValues { values in
                ["p50": .double(Self.percentile(values, 50)), "p95": .double(Self.percentile(values, 95)),
                 "max": .double(values.max() ?? .nan), "frames": .int(values.count)]
            }),
            "cpu_ms": .object(cpuMilliseconds.mapValues { values in
                ["p50": .double(Self.percentile(values, 50)), "p95": .double(Self.percentile(values, 95))]
            }),
        ]
    }

    func summary(title: String) -> String {
        var lines = [String(format: "%@: %d/%d detected (%.1f %%), %d misreads, %d false positives on %d negatives",
                            title, overall.detected, overall.positives, overall.rate * 100, overall.misreads,
                            overall.falsePositives, overall.negatives)]
        for (name, t) in categories.sorted(by: { $0.key < $1.key }) {
            lines.append(String(format: "  %-14@ %3d/%3d  %5.1f %%  misreads %d", name, t.detected, t.positives, t.rate * 100, t.misreads))
        }
        for (size, values) in milliseconds.sorted(by: { $0.key < $1.key }) {
            let cpu = cpuMilliseconds[size] ?? []
            lines.append(String(format: "  %@ ms p50 %.1f p95 %.1f (CPU p50 %.1f p95 %.1f)", size, Self.percentile(values, 50),
                                Self.percentile(values, 95), Self.percentile(cpu, 50), Self.percentile(cpu, 95)))
        }
        return lines.joined(separator: "\n")
    }
}
