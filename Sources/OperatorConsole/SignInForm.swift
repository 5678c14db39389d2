import Foundation

/// The hub address, e-mail and password a staff member signs a station in with.
///
/// The password never appears in a description, a log line or a test failure: only the
/// runtime's sign-in call reads it.
public struct SignInCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var hub: String
    public var email: String
    public let password: String

    public init(hub: String, email: String, password: String) {
        self.hub = hub
        self.email = email
        self.password = password
    }

    public var description: String { "SignInCredentials(hub: \(hub), email: \(email), password: <hidden>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["hub": hub, "email": email, "password": "<hidden>"]) }
}

/// The sign-in screen's form: the hub address (unless the configuration names one), the staff
/// e-mail and the password, which is kept here only until it is submitted and is drawn as a
/// fixed mask, never as what was typed.
public struct SignInForm: Sendable, Equatable {
    public enum Field: Sendable, Equatable, CaseIterable {
        case hub, email, password
    }

    public enum Outcome: Sendable, Equatable {
        case stay
        case submit(SignInCredentials)
    }

    public private(set) var hub: String
    /// The configuration names the hub: the form does not ask for it.
    public let hubFixed: Bool
    public private(set) var email = ""
    private var password = ""
    public private(set) var field: Field
    /// What is wrong with the last attempt ("The hub refused this e-mail and password…").
    public var problem: String?
    /// A sign-in is under way: keys wait until it answers.
    public var busy = false

    /// Drawn instead of the password: the same whatever its length.
    public static let mask = "••••••••"

    public init(hub: String? = nil, email: String = "") {
        self.hub = hub ?? ""
        hubFixed = hub.map { !$0.isEmpty } ?? false
        self.email = email
        field = hubFixed ? (email.isEmpty ? .email : .password) : .hub
    }

    /// The fields on the screen, in order.
    public var fields: [Field] { hubFixed ? [.email, .password] : Field.allCases }

    public var hasPassword: Bool { !password.isEmpty }

    mutating func handle(_ key: Key) -> Outcome {
        guard !busy else { return .stay }
        switch key {
        case .character(let character):
            edit { if $0.count < 256 { $0.append(character) } }
        case .backspace:
            edit { if !$0.isEmpty { $0.removeLast() } }
        case .control("u"):
            edit { $0 = "" }
        case .tab, .down:
            move(1)
        case .backTab, .up:
            move(-1)
        case .enter:
            if let missing = firstMissing {
                field = missing
                problem = Self.missingWords(missing)
                return .stay
            }
            if field != .password {
                move(1)
                return .stay
            }
            let credentials = SignInCredentials(hub: hub.trimmingCharacters(in: .whitespaces),
                                                email: email.trimmingCharacters(in: .whitespaces), password: password)
            password = ""
            problem = nil
            busy = true
            return .submit(credentials)
        default:
            break
        }
        return .stay
    }

    /// The hub refused or could not be reached: the form is open again, password empty.
    mutating func refused(_ problem: String) {
        busy = false
        password = ""
        self.problem = problem
        field = .password
    }

    private var firstMissing: Field? {
        fields.first { field in
            switch field {
            case .hub: hub.trimmingCharacters(in: .whitespaces).isEmpty
            case .email: email.trimmingCharacters(in: .whitespaces).isEmpty
            case .password: password.isEmpty
            }
        }
    }

    private static func missingWords(_ field: Field) -> String {
        switch field {
        case .hub: "Hub address: type it, e.g. https://hub.example.org"
        case .email: "E-mail: type the staff e-mail address"
        case .password: "Password: type the password"
        }
    }

    private mutating func move(_ step: Int) {
        let all = fields
        let index = all.firstIndex(of: field) ?? 0
        field = all[(index + step + all.count) % all.count]
    }

    private mutating func edit(_ change: (inout String) -> Void) {
        switch field {
        case .hub: change(&hub)
        case .email: change(&email)
        case .password: change(&password)
        }
        problem = nil
    }
}
