/// A sign-out waiting for the changes the hub has not received: how many it waits for and how
/// many are still to go, shown until the station is signed out (the door keeps scanning meanwhile).
public struct SignOutProgress: Sendable, Equatable {
    /// Changes pending when the operator chose to wait.
    public var waiting: Int
    /// Still not uploaded.
    public var left: Int

    public init(waiting: Int, left: Int) {
        self.waiting = waiting
        self.left = left
    }

    /// "Signing out once 3 changes are uploaded: 1 of 3 so far · hub unreachable — working offline".
    public func words(hub: String) -> String {
        let plural = waiting == 1 ? "change is" : "changes are"
        return "Signing out once \(waiting) \(plural) uploaded: \(waiting - left) of \(waiting) so far · \(hub)"
    }
}
