import CheckInCore
import HubAPI
import Foundation
import Synchronization

/// Accounts whose password is being guessed, for the organizer's dashboard: per account that
/// exists, the wrong passwords from clients that never signed in to it and the attempts held
/// back by the lockout, since when. Per process; an account is forgotten an hour after its last
/// such attempt, and only accounts are kept (an e-mail of no account is not one).
package final class GuessedAccounts: Sendable {
    /// What the dashboard says about one account.
    package struct Notice: Sendable, Equatable {
        var staffID: String
        package var email: String
        package var wrongPasswords: Int
        package var heldBack: Int
        package var since: Date
        package var last: Date
    }

    private let records = Mutex([String: Notice]())
    let forgetAfter: TimeInterval

    init(forgetAfter: TimeInterval = 3_600) {
        self.forgetAfter = forgetAfter
    }

    func wrongPassword(_ staff: StaffInfo, now: Date = Date()) {
        update(staff, now) { $0.wrongPasswords += 1 }
    }

    func heldBack(_ staff: StaffInfo, now: Date = Date()) {
        update(staff, now) { $0.heldBack += 1 }
    }

    /// The accounts with at least `threshold` wrong passwords lately, most guessed first.
    package func notices(threshold: Int, now: Date = Date()) -> [Notice] {
        records.withLock { records in
            records = records.filter { now.timeIntervalSince($0.value.last) < forgetAfter }
            return records.values.filter { $0.wrongPasswords >= max(1, threshold) }
                .sorted { ($0.wrongPasswords, $1.email) > ($1.wrongPasswords, $0.email) }
        }
    }

    private func update(_ staff: StaffInfo, _ now: Date, _ change: (inout Notice) -> Void) {
        records.withLock { records in
            if let old = records[staff.id], now.timeIntervalSince(old.last) >= forgetAfter { records[staff.id] = nil }
            var notice = records[staff.id] ?? Notice(staffID: staff.id, email: staff.email, wrongPasswords: 0, heldBack: 0, since: now, last: now)
            change(&notice)
            notice.last = now
            records[staff.id] = notice
        }
    }
}
