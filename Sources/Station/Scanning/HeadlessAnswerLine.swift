import Foundation

/// A headless caller's answers to a ticket's questions at the door, one JSON object on its own
/// line of standard input: `{"code": "…", "answers": {"<question id>": "<answer as typed>"}}`.
/// The station's `questions` line lists the questions (``CheckInCore/QuestionsAtTheDoor``); the
/// code is presented again with the answers, checked and recorded as at the console. Any other
/// line is a code, as before: a ticket code is never a JSON object with these two members.
struct HeadlessAnswerLine: Decodable, Equatable {
    var code: String
    var answers: [String: String]

    init?(_ line: String) {
        guard line.first == "{", let read = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)),
              !read.code.isEmpty, read.code.count <= 256, read.answers.count <= 100 else { return nil }
        self = read
    }
}
