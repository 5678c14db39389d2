import CheckInCore
import Glibc
import PretixClient

extension PretixDeviceIdentity {
    /// What this station tells pretix about itself (shown in pretix's device list): the machine,
    /// the kernel, and this version of the station's software.
    public static var thisStation: PretixDeviceIdentity {
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return PretixDeviceIdentity(hardwareBrand: "Linux", hardwareModel: machine, osName: "Linux", osVersion: release,
                                    softwareBrand: "checkin-kiosk", softwareVersion: ProductVersion.current)
    }
}
