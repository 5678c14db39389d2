import Foundation

/// A headless caller's answers to a ticket's questions at the door, one JSON object on its own
/// line of standard input: `{"code": "…", "answers": {"<question id>": "<answer as typed>"}}`.
/// The station's `questions` line lists the questions (``CheckInCore/QuestionsAtTheDoor``); the
/// code is presented again with the answers, checked and recorded as at the console. Any other
/// line is a code, as before: a ticket code is never a JSON object with these two members.
///
/// An answer is what staff would type, and JSON's own values are taken as such: a number as its
/// digits, `true`/`false` as yes/no, a list (multiple choice) as its items joined by commas,
/// `null` as an answer left empty (what staff leave an optional question with).
struct HeadlessAnswerLine: Decodable, Equatable {
    var code: String
    var answers: [String: String]

    init?(_ line: String) {
        guard line.first == "{", let read = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)),
              !read.code.isEmpty, read.code.count <= 256, read.answers.count <= 100 else { return nil }
        self = read
    }

    private enum CodingKeys: String, CodingKey { case code, answers }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        answers = try container.decode([String: Typed].self, forKey: .answers).mapValues(\.text)
    }

    /// One answer as JSON gives it, as staff would type it.
    private struct Typed: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                text = ""
            } else if let items = try? [Typed](from: decoder) {
                text = items.map(\.text).filter { !$0.isEmpty }.joined(separator: ",")
            } else {
                text = try Self.scalar(value)
            }
        }

        static func scalar(_ value: any SingleValueDecodingContainer) throws -> String {
            if let text = try? value.decode(String.self) { return text }
            if let flag = try? value.decode(Bool.self) { return flag ? "yes" : "no" }
            if let whole = try? value.decode(Int64.self) { return String(whole) }
            return String(try value.decode(Double.self))
        }
    }
}
