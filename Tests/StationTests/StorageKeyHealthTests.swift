import KioskStore
import Station
import Testing

/// The storage key's part of the station's health: a key on the data's disk is a fault, the
/// least urgent, so the fault line says it only when nothing more pressing is wrong.
struct StorageKeyHealthTests {
    @Test func aKeyOnTheDataDisksIsTheLeastUrgentFault() {
        var health = StationHealth(storageKey: .hostKey)
        #expect(health.mostUrgent?.state == "host_key")
        #expect(health.mostUrgent?.fix?.contains("move-key --to-removable") == true)
        health.clock = .wrong(skewMilliseconds: 3_600_000)
        #expect(health.mostUrgent?.state == "wrong", "the clock is more urgent")
        #expect(StationHealth(storageKey: .tpm2).mostUrgent == nil)
        #expect(StationHealth(storageKey: .separateMedium).mostUrgent == nil)
        #expect(StationHealth().mostUrgent == nil, "not assessed is no fault")
        if case .object(let members) = StationHealth(storageKey: .keyFileSameDisk).json, case .object(let key)? = members["storage_key"] {
            #expect(key["state"] == .string("key_file_same_disk"))
        } else {
            Issue.record("no storage_key in the health JSON")
        }
    }
}
