import HubServer
import Synchronization

/// How many live page streams one session, and one staff member over all their sessions, hold
/// open at once in this process. Beyond either, the stream is refused (429, ``LiveStream``):
/// one account, or a stolen station token (also a valid session cookie), cannot hold every
/// stream place, let alone the stations'.
final class LiveStreamQuota: Sendable {
    /// Why a stream was refused: the cap reached.
    enum Refusal: Error, Sendable, Equatable {
        case session(Int)
        case staff(Int)
    }

    /// One open stream's places, given back by the stream as it ends (``giveBack()``), or else
    /// when the last reference to it goes (its answer was never written): nothing can forget to
    /// release it, and nothing releases it twice.
    final class Ticket: Sendable {
        fileprivate let quota: LiveStreamQuota
        let session: String
        let staff: String
        private let given = Atomic(false)

        fileprivate init(quota: LiveStreamQuota, session: String, staff: String) {
            self.quota = quota
            self.session = session
            self.staff = staff
        }

        /// Gives the places back now: the server may keep a finished answer (and so this ticket)
        /// until its connection is torn down, and a reloaded page must find its place free.
        func giveBack() {
            guard !given.exchange(true, ordering: .acquiringAndReleasing) else { return }
            quota.release(session: session, staff: staff)
        }

        deinit { giveBack() }
    }

    private struct State {
        var sessions: [String: Int] = [:]
        var staff: [String: Int] = [:]
    }

    private let state = Mutex(State())
    let perSession: Int
    let perStaff: Int

    init(perSession: Int, perStaff: Int) {
        self.perSession = perSession
        self.perStaff = perStaff
    }

    /// A ticket for one more stream of `session` (staff member `staff`), or the ``Refusal`` when
    /// either already holds its cap.
    func admit(session: String, staff: String) -> Result<Ticket, Refusal> {
        let refusal: Refusal? = state.withLock { state in
            if state.sessions[session, default: 0] >= perSession { return .session(perSession) }
            if state.staff[staff, default: 0] >= perStaff { return .staff(perStaff) }
            state.sessions[session, default: 0] += 1
            state.staff[staff, default: 0] += 1
            return nil
        }
        if let refusal { return .failure(refusal) }
        return .success(Ticket(quota: self, session: session, staff: staff))
    }

    /// Streams open now.
    var open: Int { state.withLock { $0.sessions.values.reduce(0, +) } }

    private func release(session: String, staff: String) {
        state.withLock { state in
            Self.decrement(&state.sessions, session)
            Self.decrement(&state.staff, staff)
        }
    }

    private static func decrement(_ counts: inout [String: Int], _ key: String) {
        let left = counts[key, default: 1] - 1
        counts[key] = left > 0 ? left : nil
    }
}
