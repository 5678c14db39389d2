import Foundation
import HubAPI
import Testing
@testable import HubServer

/// The lockout's decisions in process: who waits after whose wrong passwords, the device proof,
/// what the dashboard is told.
struct SignInLockoutTests {
    func lockout(pair: Int = 5, account: Int = 20, client: Int = 20) -> SignInLockout {
        SignInLockout(pair: .init(freeFailures: pair, firstWait: .seconds(30)), account: .init(freeFailures: account, firstWait: .seconds(30)),
                      client: .init(freeFailures: client, firstWait: .seconds(30)))
    }

    @Test func theGuesserWaitsAndTheOwnerElsewhereDoesNot() {
        let lockout = lockout()
        let guesser = SignInLockout.Attempt(email: "olga@x.org", client: "203.0.113.9")
        for _ in 1...5 { lockout.failed(guesser) }
        #expect(lockout.secondsToWait(guesser) != nil)
        #expect(lockout.secondsToWait(.init(email: "OLGA@x.org", client: "198.51.100.7")) == nil)
    }

    @Test func guessesFromManyAddressesHoldNewClientsBackButNotRecognisedOnes() {
        let lockout = lockout(account: 3)
        for host in 1...3 { lockout.failed(.init(email: "olga@x.org", client: "203.0.113.\(host)")) }
        #expect(lockout.secondsToWait(.init(email: "olga@x.org", client: "198.51.100.7")) != nil, "a new client")
        #expect(lockout.secondsToWait(.init(email: "olga@x.org", client: "198.51.100.7", recognisedAs: "device:dev_1")) == nil)
        #expect(lockout.secondsToWait(.init(email: "sam@x.org", client: "198.51.100.7")) == nil, "another account")
        // A recognised client's own wrong passwords hold back that client only.
        let browser = SignInLockout.Attempt(email: "olga@x.org", client: "198.51.100.7", recognisedAs: "device:dev_1")
        for _ in 1...5 { lockout.failed(browser) }
        #expect(lockout.secondsToWait(browser) != nil)
        #expect(lockout.secondsToWait(.init(email: "olga@x.org", client: "198.51.100.7", recognisedAs: "device:dev_2")) == nil)
    }

    @Test func aSuccessRecognisesTheAddressAndClearsOnlyItsOwnFailures() {
        let lockout = lockout(pair: 2, account: 3)
        let station = SignInLockout.Attempt(email: "alex@x.org", client: "198.51.100.7")
        lockout.failed(station)
        lockout.succeeded(station, staffID: "st_1")
        #expect(lockout.recognised.contains(staffID: "st_1", client: "198.51.100.7"))
        #expect(!lockout.recognised.contains(staffID: "st_2", client: "198.51.100.7"))
        for host in 1...3 { lockout.failed(.init(email: "alex@x.org", client: "203.0.113.\(host)")) }
        lockout.succeeded(station, staffID: "st_1")
        #expect(lockout.secondsToWait(.init(email: "alex@x.org", client: "192.0.2.1")) != nil, "the owner signing in does not stop the guessing")
    }

    @Test func aDeviceProofHoldsForItsAccountAndPasswordOnly() {
        let proof = DeviceProof.make(staffID: "st_1", passwordHash: "pbkdf2-sha256$600000$a$b")
        let device = DeviceProof.device(in: proof, staffID: "st_1", passwordHash: "pbkdf2-sha256$600000$a$b")
        #expect(device?.hasPrefix("dev_") == true)
        #expect(DeviceProof.device(in: proof, staffID: "st_2", passwordHash: "pbkdf2-sha256$600000$a$b") == nil, "another account")
        #expect(DeviceProof.device(in: proof, staffID: "st_1", passwordHash: "pbkdf2-sha256$600000$c$d") == nil, "after a new password")
        #expect(DeviceProof.device(in: "dev_1.forged", staffID: "st_1", passwordHash: "pbkdf2-sha256$600000$a$b") == nil)
        #expect(DeviceProof.device(in: String(repeating: "x", count: 10_000), staffID: "st_1", passwordHash: "h") == nil)
        #expect(DeviceProof.device(in: nil, staffID: "st_1", passwordHash: "h") == nil)
    }

    @Test func theDashboardIsToldOfAccountsGuessedAtAndForgetsThemAnHourLater() {
        let guessed = GuessedAccounts()
        let olga = StaffInfo(id: "st_1", email: "olga@x.org", name: "Olga", role: .organizer)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        for second in 0..<6 { guessed.wrongPassword(olga, now: start + Double(second)) }
        guessed.heldBack(olga, now: start + 10)
        guessed.wrongPassword(StaffInfo(id: "st_2", email: "sam@x.org", name: "Sam", role: .support), now: start)
        let notices = guessed.notices(threshold: 5, now: start + 20)
        #expect(notices == [.init(staffID: "st_1", email: "olga@x.org", wrongPasswords: 6, heldBack: 1, since: start, last: start + 10)])
        #expect(guessed.notices(threshold: 5, now: start + 3_700).isEmpty)
    }
}
