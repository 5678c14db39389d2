import Foundation
import Testing
@testable import Station

@Suite struct BoundedLinesTests {
    @Test func linesAcrossChunksComeOutTrimmedAndEmptyOnesAreSkipped() {
        var lines = BoundedLines(limit: 64)
        #expect(lines.append(Data("AB".utf8)).isEmpty)
        #expect(lines.append(Data("C1\r\n\n  \nDEF\n GH".utf8)) == ["ABC1", "DEF"])
        #expect(lines.finish() == "GH")
    }

    @Test func aLineOverTheLimitIsDroppedUpToItsNewlineAndTheBufferStaysSmall() {
        var lines = BoundedLines(limit: 16)
        for _ in 0..<1_000 { #expect(lines.append(Data(repeating: UInt8(ascii: "x"), count: 4_096)).isEmpty) }
        #expect(lines.append(Data("still the long line\nCODE-1\n".utf8)) == ["CODE-1"])
        #expect(lines.append(Data(repeating: UInt8(ascii: "y"), count: 100)).isEmpty)
        #expect(lines.finish() == nil, "an unfinished overlong line is not a code")
    }
}
