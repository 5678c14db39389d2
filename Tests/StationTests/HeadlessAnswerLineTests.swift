@testable import Station
import Testing

/// What a headless caller sends back for a ticket's questions: JSON's own values are taken as
/// what staff would type, and a line that is not such an object stays a code.
@Suite struct HeadlessAnswerLineTests {
    @Test func answersMayBeTextNumbersYesNoListsOrNullForLeftEmpty() throws {
        let line = try #require(HeadlessAnswerLine(#"{"code": "T-1", "answers": {"1": "Morning", "2": 3, "3": true, "4": false, "5": ["a", 2], "6": null, "7": 1.5}}"#))
        #expect(line.code == "T-1")
        #expect(line.answers == ["1": "Morning", "2": "3", "3": "yes", "4": "no", "5": "a,2", "6": "", "7": "1.5"])
    }

    @Test(arguments: ["T-1", "{not json", #"{"code": "T-1"}"#, #"{"code": "", "answers": {}}"#, #"{"code": "T-1", "answers": {"1": {"nested": 1}}}"#])
    func aLineThatIsNotAnAnswersObjectIsACode(line: String) {
        #expect(HeadlessAnswerLine(line) == nil)
    }
}
