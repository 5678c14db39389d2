import CheckInCore
import Foundation
import KioskTestSupport
import Testing
@testable import KioskStore

@Suite("One station per data directory")
struct StationLockTests {
    @Test("a second holder is refused with the first one's pid, command and start; once released the directory is free")
    func secondHolderRefusedUntilReleased() throws {
        let directory = TemporaryDirectory("station-lock")
        defer { directory.remove() }
        let data = directory.appending("data")
        var first: StationLock? = try StationLock.acquire(in: data, command: "kiosk run --headless", now: Timestamp(milliseconds: 1_795_800_000_000))
        #expect(first != nil)
        #expect(throws: StoreError.anotherStationRuns(path: data.path, holder: StationLock.Holder(
            pid: getpid(), command: "kiosk run --headless", since: Timestamp(milliseconds: 1_795_800_000_000)))) {
            try StationLock.acquire(in: data, command: "kiosk import")
        }
        first = nil
        let second = try StationLock.acquire(in: data, command: "kiosk import")
        withExtendedLifetime(second) {}
        let mode = try FileManager.default.attributesOfItem(atPath: StationLock.url(in: data).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("the refusal names the running station and says what to do")
    func refusalWords() {
        let holder = StationLock.Holder(pid: 4242, command: "kiosk run --headless", since: .now())
        let words = StoreError.anotherStationRuns(path: "/var/lib/checkin-kiosk", holder: holder).description
        #expect(words.contains("PID 4242") && words.contains("\"kiosk run --headless\"") && words.contains("since "))
        #expect(words.contains("systemctl stop checkin-kiosk") && words.contains("kiosk status"))
    }
}
