import Foundation
import CheckInCore
import HubAPI
import HubServer

/// The staff page's "add a person" form, checked into an account and its password (hashed by
/// the caller through the hub's hashing gate) or into what to correct. No I/O.
struct StaffForm: Sendable, Hashable {
    var email = ""
    var name = ""
    var role = "staff"
    /// Never shown again, not even after a refused form.
    var password = ""

    init() {}

    init(_ form: WebForm) {
        email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        name = form["name"] ?? ""
        role = form["role"] ?? ""
        password = form["password"] ?? ""
    }

    func decide(id: String) -> Result<(info: StaffInfo, password: String), EventForm.Problems> {
        var problems: [String] = []
        if email.utf8.count > 254 || !EmailAddress.isPlausible(email) { problems.append("Give an e-mail address such as sam@example.org.") }
        let name = Sanitized.text(name).trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { problems.append("Give the person's name, as stations show it.") }
        if name.count > EventForm.nameCharacters { problems.append("The name may have at most \(EventForm.nameCharacters) characters.") }
        let role = StaffRole(rawValue: role)
        if role == nil { problems.append("Choose a role: organizer, support or staff.") }
        if let problem = NewPassword.problem(password) { problems.append(problem) }
        guard problems.isEmpty, let role else { return .failure(EventForm.Problems(messages: problems)) }
        return .success((StaffInfo(id: id, email: email.lowercased(), name: name, role: role), password))
    }
}
