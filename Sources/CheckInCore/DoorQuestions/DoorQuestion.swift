/// A question the door asks before an entry (pretix: "ask during check-in"): a waiver to accept,
/// a session to choose, a phone number for emergencies. Source-independent: the ticket shop's
/// questions are converted into it, and the console, the headless line and `kiosk checkin` ask it.
public struct DoorQuestion: Sendable, Hashable, Codable {
    /// The shop's id of the question: answers are keyed by it.
    public var id: String
    /// The question as the shop words it.
    public var text: String
    public var kind: Kind
    /// An answer is needed; a required yes/no question must be answered yes (a waiver).
    public var required: Bool
    /// Asked only when another question of the same ticket was answered with one of these values
    /// (stored forms, ``DoorQuestion/answer(typed:)``).
    public var condition: Condition?

    public init(id: String, text: String, kind: Kind, required: Bool, condition: Condition? = nil) {
        self.id = id
        self.text = text
        self.kind = kind
        self.required = required
        self.condition = condition
    }

    /// What kind of answer the question takes, with the bounds the shop set.
    public enum Kind: Sendable, Hashable, Codable {
        case text(maxLength: Int?)
        case multilineText(maxLength: Int?)
        /// A decimal number, between the bounds when set (in the shop's decimal form, "1.50").
        case number(min: String?, max: String?)
        case yesNo
        case choice([Option])
        case multipleChoice([Option])
        /// A day, `YYYY-MM-DD`, between the bounds when set.
        case date(earliest: String?, latest: String?)
        /// A time of day, `HH:MM`.
        case time
        /// A day and time, `YYYY-MM-DD HH:MM` in the event's time zone.
        case dateTime
        /// An ISO 3166 country code ("DE").
        case country
        case phone
        case email
        /// A file to upload: not answered at a door; the attendee sees staff.
        case file
    }

    /// One choice of a choice question.
    public struct Option: Sendable, Hashable, Codable {
        /// The shop's id of the option: the stored answer.
        public var id: String
        public var label: String

        public init(id: String, label: String) {
            self.id = id
            self.label = label
        }
    }

    /// The question is asked only after another question was answered with one of `values`.
    public struct Condition: Sendable, Hashable, Codable {
        public var question: String
        public var values: [String]

        public init(question: String, values: [String]) {
            self.question = question
            self.values = values
        }
    }
}

extension DoorQuestion.Kind {
    /// The kind's stable name (JSON, `kiosk checkin`).
    public var name: String {
        switch self {
        case .text: "text"
        case .multilineText: "multiline_text"
        case .number: "number"
        case .yesNo: "yes_no"
        case .choice: "choice"
        case .multipleChoice: "multiple_choice"
        case .date: "date"
        case .time: "time"
        case .dateTime: "date_time"
        case .country: "country"
        case .phone: "phone"
        case .email: "email"
        case .file: "file"
        }
    }
}
