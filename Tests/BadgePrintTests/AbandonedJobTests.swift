import Testing
@testable import PrintSpooler

/// What a badge the station gave up on may do: only the printer's "never had it" frees it.
@Suite("a badge the station gave up on")
struct AbandonedJobTests {
    @Test("a job still pending at the print server never reached the printer, whatever it answers",
          arguments: [PrinterJobAnswer.cannotAsk, .unreachable, .noRecord, .ended(.canceled), .ended(.completed)])
    func neverLeft(_ answer: PrinterJobAnswer) {
        #expect(AbandonedJob.judge(reachedPrinter: false, answer: answer) == .neverPrinted)
    }

    @Test("a job the printer had: free again only when the printer has no record of it or aborted it; printed when it says so",
          arguments: [
            (PrinterJobAnswer.noRecord, AbandonedJob.neverPrinted), (.ended(.aborted), .neverPrinted), (.ended(.completed), .printed),
            (.ended(.canceled), .mayHavePrinted), (.ended(.processing), .mayHavePrinted), (.unreachable, .mayHavePrinted),
            (.cannotAsk, .mayHavePrinted),
          ])
    func reachedThePrinter(_ sample: (PrinterJobAnswer, AbandonedJob)) {
        #expect(AbandonedJob.judge(reachedPrinter: true, answer: sample.0) == sample.1)
    }
}
