import Foundation
import KioskTestSupport
import Testing
@testable import KioskStore

/// How a key's protection is judged, as values: a sealed credential by the id in its header, a
/// key file by the disk it is on.
struct StorageKeyProtectionTests {
    /// The header of a credential sealed here with `systemd-creds encrypt --with-key=host`: its id
    /// is `CRED_AES256_GCM_BY_HOST`.
    static let hostSealed = "Whxqht+dQJax1aZeCGLxmiAAAAABAAAADAAAABAAAAC1/IyYMgRmxkWHrnUAAAAAJJ7Zb/4vdEX3D1+\naYOZkOIGWzb95BvZjw0G0nsz6dZ4A=="

    /// A header carrying `id` (hex), in base64 as systemd-creds writes it.
    func sealed(_ id: String) -> Data {
        var bytes = stride(from: 0, to: id.count, by: 2).map { offset -> UInt8 in
            let start = id.index(id.startIndex, offsetBy: offset)
            return UInt8(id[start..<id.index(start, offsetBy: 2)], radix: 16)!
        }
        bytes += [UInt8](repeating: 7, count: 40)
        return Data(Data(bytes).base64EncodedString().utf8)
    }

    @Test func aSealedCredentialIsJudgedByTheKeyItsHeaderNames() {
        #expect(CredentialSealing.protection(ofSealed: Data(Self.hostSealed.utf8)) == .hostKey)
        #expect(CredentialSealing.protection(ofSealed: sealed("55b9ed1d38594d43a8319d2ebb332ac6")) == .hostKey, "host, scoped")
        #expect(CredentialSealing.protection(ofSealed: sealed("93a894094874449090caf2fc93cab553")) == .tpm2, "host and TPM2")
        #expect(CredentialSealing.protection(ofSealed: sealed("0c7cc07b117645919c4b0bea08bc20fe")) == .tpm2, "TPM2 alone")
        #expect(CredentialSealing.protection(ofSealed: sealed("058469daf6f54324800549da0f8ea2fb")) == .noKey, "tpm2-absent")
        #expect(CredentialSealing.protection(ofSealed: sealed("00112233445566778899aabbccddeeff")) == nil, "an id systemd does not know")
        #expect(CredentialSealing.protection(ofSealed: Data("missing\n".utf8)) == nil, "the unit's stand-in value")
    }

    @Test func aKeyFileIsOnTheDataDisksUnlessItIsOnAnotherFileSystem() throws {
        let directory = TemporaryDirectory("protection-disk")
        defer { directory.remove() }
        let data = directory.appending("data")
        #expect(DiskIdentity.sameDisk(directory.appending("keys/x.key").path, data.path), "a file not made yet: its folder's disk")
        let source = StorageKeySource.keyFile(directory.appending("station.key"))
        #expect(source.protection(store: "s", dataDirectory: data) == .keyFileSameDisk)
        // /dev/shm is a tmpfs, a file system of its own, as a mounted stick is.
        let other = URL(fileURLWithPath: "/dev/shm")
        guard DiskIdentity.disk(of: other.path) != DiskIdentity.disk(of: data.path) else { return }
        #expect(StorageKeySource.removable(other.appendingPathComponent("k.key")).protection(store: "s", dataDirectory: data) == .separateMedium)
        #expect(StorageKeySource.given(.random(), label: "the recovery key").protection(store: "s", dataDirectory: data) == .recoveryKey)
    }

    @Test func onlyKeysOnTheDataDisksComeWithTheStrongerChoices() {
        for protection in StorageKeyProtection.allCases {
            #expect((protection.advice != nil) == protection.sameDiskAsData, "\(protection)")
        }
        #expect(StorageKeyProtection.hostKey.words.contains("this box has no TPM2"))
    }
}
