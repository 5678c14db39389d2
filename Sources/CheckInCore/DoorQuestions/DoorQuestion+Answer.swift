import Foundation

extension DoorQuestion {
    /// An answer as typed at the door (the console's line, a headless caller's JSON) checked
    /// against the question, in the form the check-in stores and the shop takes: yes/no as
    /// `True`/`False`, a choice as its option's id (typed as its number in the list, its id or
    /// its words), several choices as ids joined by commas, a date as `YYYY-MM-DD`, a time as
    /// `HH:MM`, a country as its two-letter code. An empty answer is `""` where the question is
    /// not required. A refusal says what to type instead.
    public func answer(typed: String) -> Result<String, AnswerProblem> {
        let typed = Sanitized.text(typed).trimmingCharacters(in: .whitespacesAndNewlines)
        if typed.isEmpty {
            if kind == .file && required { return .failure(AnswerProblem("A file is needed: the attendee sees staff to upload it")) }
            return required ? .failure(AnswerProblem(kind == .yesNo ? "Answer yes to enter" : "An answer is needed")) : .success(kind == .yesNo ? "False" : "")
        }
        switch kind {
        case .text(let maxLength), .multilineText(let maxLength):
            if let maxLength, typed.count > maxLength { return .failure(AnswerProblem("At most \(maxLength) characters")) }
            return .success(typed)
        case .number(let min, let max):
            let normal = typed.replacingOccurrences(of: ",", with: ".")
            guard let value = Decimal(string: normal, locale: Locale(identifier: "en_US_POSIX")),
                  normal.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }) else {
                return .failure(AnswerProblem("Type a number, such as 3 or 2.5"))
            }
            if let min, let low = Decimal(string: min, locale: Locale(identifier: "en_US_POSIX")), value < low {
                return .failure(AnswerProblem("At least \(min)"))
            }
            if let max, let high = Decimal(string: max, locale: Locale(identifier: "en_US_POSIX")), value > high {
                return .failure(AnswerProblem("At most \(max)"))
            }
            return .success("\(value)")
        case .yesNo:
            switch typed.lowercased() {
            case "y", "yes", "true", "1": return .success("True")
            case "n", "no", "false", "0":
                return required ? .failure(AnswerProblem("This must be yes to enter: the attendee sees staff")) : .success("False")
            default: return .failure(AnswerProblem("Type Y for yes or N for no"))
            }
        case .choice(let options):
            guard let option = Self.option(typed, in: options) else {
                return .failure(AnswerProblem("Type the number of one choice, 1 to \(options.count)"))
            }
            return .success(option.id)
        case .multipleChoice(let options):
            let parts = typed.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            var chosen: [String] = []
            for part in parts {
                guard let option = Self.option(part, in: options) else {
                    return .failure(AnswerProblem("Type the numbers of the choices, 1 to \(options.count), separated by commas"))
                }
                if !chosen.contains(option.id) { chosen.append(option.id) }
            }
            return .success(chosen.joined(separator: ","))
        case .date(let earliest, let latest):
            guard let day = Self.day(typed) else { return .failure(AnswerProblem("Type a date as YYYY-MM-DD, such as 2026-11-29")) }
            if let earliest, day < earliest { return .failure(AnswerProblem("Not before \(earliest)")) }
            if let latest, day > latest { return .failure(AnswerProblem("Not after \(latest)")) }
            return .success(day)
        case .time:
            guard let time = Self.timeOfDay(typed) else { return .failure(AnswerProblem("Type a time as HH:MM, such as 09:30")) }
            return .success(time)
        case .dateTime:
            let parts = typed.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
            guard parts.count == 2, let day = Self.day(parts[0]), let time = Self.timeOfDay(parts[1]) else {
                return .failure(AnswerProblem("Type a date and time as YYYY-MM-DD HH:MM"))
            }
            return .success("\(day)T\(time)")
        case .country:
            let code = typed.uppercased()
            guard code.count == 2, Self.countries.contains(code) else {
                return .failure(AnswerProblem("Type the country's two-letter code, such as DE or US"))
            }
            return .success(code)
        case .phone:
            let kept = typed.filter { !" -()/.".contains($0) }
            let digits = kept.drop(while: { $0 == "+" })
            guard kept.count <= 20, digits.count >= 5, digits.allSatisfy(\.isASCIIDigit), kept.filter({ $0 == "+" }).count <= 1 else {
                return .failure(AnswerProblem("Type a phone number, such as +49 30 1234567"))
            }
            return .success(kept)
        case .email:
            guard EmailAddress.isPlausible(typed) else { return .failure(AnswerProblem("Type an e-mail address, such as name@example.org")) }
            return .success(typed)
        case .file:
            return .failure(AnswerProblem("A file cannot be given at the door: the attendee sees staff to upload it"))
        }
    }

    /// Whether this question is asked, given the answers (stored forms) to the others so far.
    public func isAsked(after answers: [String: String]) -> Bool {
        guard let condition else { return true }
        guard let given = answers[condition.question] else { return false }
        let values = Set(given.split(separator: ",").map(String.init))
        return !values.isDisjoint(with: condition.values)
    }

    /// An option typed as its number in the list (1-based), its id or its words.
    static func option(_ typed: String, in options: [Option]) -> Option? {
        if let number = Int(typed), options.indices.contains(number - 1) { return options[number - 1] }
        return options.first { $0.id == typed } ?? options.first { $0.label.lowercased() == typed.lowercased() }
    }

    /// A real calendar day typed as `YYYY-MM-DD` (also `YYYY-M-D`), as `YYYY-MM-DD`.
    static func day(_ typed: String) -> String? {
        let parts = typed.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
              (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// A time of day typed as `HH:MM` (also `H:MM`, `HH:MM:SS`), as `HH:MM`.
    static func timeOfDay(_ typed: String) -> String? {
        let parts = typed.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), let hour = parts[0], let minute = parts[1],
              (0...23).contains(hour), (0...59).contains(minute), parts.count == 2 || (parts[2].map { (0...59).contains($0) } ?? false)
        else { return nil }
        return String(format: "%02d:%02d", hour, minute)
    }

    /// ISO 3166-1 alpha-2 codes.
    static let countries: Set<String> = Set(Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) })
}

/// Why a typed answer does not answer a question, in words for the door staff.
public struct AnswerProblem: Error, Sendable, Hashable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
