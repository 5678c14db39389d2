import PrintTestSupport
import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import KioskTestSupport
import PrintSpooler

/// A station database with a few guests, and a spooler printing to a private cupsd.
struct PrintStation {
    let directory: TemporaryDirectory
    let database: KioskDatabase
    let rig: CupsRig

    static let guests: [(id: String, code: String, name: String)] = [
        ("g-1", "CODE-1", "José Müller"),
        ("g-2", "CODE-2", "王小明"),
        ("g-3", "CODE-3", "Νίκος Παπαδόπουλος"),
    ]

    init(queues: [String] = ["badge"]) async throws {
        rig = try await Self.startRig(queues)
        directory = TemporaryDirectory("print-station")
        database = try KioskDatabase.open(dataDirectory: directory.url)
        try await database.roster.saveAccessType(AccessType(id: "vip", name: "VIP"))
        for guest in Self.guests {
            try await database.roster.saveGuest(Guest(id: guest.id, code: TicketCode(stored: guest.code), name: guest.name, company: "ACME", accessTypeID: "vip"))
        }
    }

    /// Starts the rig off the cooperative pool: the script waits for three daemons, and the whole
    /// test run has two cooperative threads.
    static func startRig(_ queues: [String]) async throws -> CupsRig {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try CupsRig(queues: queues) }) }
        }
    }

    func guest(_ index: Int) throws -> GuestDetails {
        try database.roster.guest(id: Self.guests[index].id)!
    }

    func spooler(queue: String = "badge", failover: String? = nil, timeout: Duration = .seconds(60), policy: PrintPolicy = .onAdmission) -> PrintSpooler {
        PrintSpooler(database: database, cups: CupsClient(server: rig.server),
                     configuration: SpoolerConfiguration(queue: queue, failoverQueue: failover, timeout: timeout, policy: policy))
    }

    func stop() {
        rig.stop()
        directory.remove()
    }
}
