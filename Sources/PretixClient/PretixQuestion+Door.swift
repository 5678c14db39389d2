import CheckInCore

extension PretixQuestion {
    /// The question as the door asks it (``CheckInCore/DoorQuestion``): pretix's type codes as
    /// kinds, its options by id, its bounds, and its dependency on another of `questions` (whose
    /// option identifiers become option ids, the answers the door stores).
    public func doorQuestion(among questions: [PretixQuestion]) -> DoorQuestion {
        let options = self.options.map { DoorQuestion.Option(id: String($0.id), label: $0.answer.text()) }
        let kind: DoorQuestion.Kind = switch type {
        case "N": .number(min: validNumberMin, max: validNumberMax)
        case "T": .multilineText(maxLength: validStringLengthMax)
        case "B": .yesNo
        case "C": .choice(options)
        case "M": .multipleChoice(options)
        case "F": .file
        case "D": .date(earliest: validDateMin.map { String($0.prefix(10)) }, latest: validDateMax.map { String($0.prefix(10)) })
        case "H": .time
        case "W": .dateTime
        case "CC": .country
        case "TEL": .phone
        case "EMAIL": .email
        default: .text(maxLength: validStringLengthMax)
        }
        var condition: DoorQuestion.Condition?
        if let dependencyQuestion, let values = dependencyValues, let parent = questions.first(where: { $0.id == dependencyQuestion }) {
            let stored = values.map { value in
                parent.options.first { $0.identifier == value }.map { String($0.id) } ?? value
            }
            condition = DoorQuestion.Condition(question: String(parent.id), values: stored)
        }
        return DoorQuestion(id: String(id), text: question.text(), kind: kind, required: required, condition: condition)
    }

    /// The questions pretix asks at the door for each product, as the door asks them.
    public static func askedAtTheDoor(_ questions: [PretixQuestion]) -> [Int: [DoorQuestion]] {
        var asked: [Int: [DoorQuestion]] = [:]
        for question in questions where question.askDuringCheckin {
            let door = question.doorQuestion(among: questions)
            for item in question.items { asked[item, default: []].append(door) }
        }
        return asked
    }
}
