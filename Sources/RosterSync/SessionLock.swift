import Foundation

/// An exclusive lock shared by every `kiosk` process of one data directory (`kiosk run` and a
/// `kiosk sync` run by support beside it), held while the session is refreshed or replaced.
///
/// The hub rotates the refresh token at each refresh and treats a rotated-away token as stolen:
/// two processes refreshing from the same stored token would sign the station out. Under this
/// lock each process first re-reads the stored session and uses the newest tokens.
///
/// `flock` on a file beside `session.json` (that file itself is replaced by rename, so it
/// cannot carry the lock); the kernel releases it when the holder exits, even by `kill -9`.
struct SessionLock {
    private let descriptor: Int32

    /// Waits (without blocking a thread) until the lock is free, for at most `timeout`.
    static func acquire(at url: URL, timeout: Duration = .seconds(30)) async throws(SyncError) -> SessionLock {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .sessionUnwritable(path: url.path, reason: String(cString: strerror(errno))) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                let reason = errno == EWOULDBLOCK ? "another kiosk process holds the session lock" : String(cString: strerror(errno))
                close(descriptor)
                throw .sessionUnwritable(path: url.path, reason: reason)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return SessionLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Releases the lock (closing the descriptor releases the `flock`).
    func release() { close(descriptor) }
}
