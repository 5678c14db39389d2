import ArgumentParser
import CheckInCore

/// `--wait | --keep | --discard`: what `kiosk signout` and `kiosk use` do with changes that
/// have not reached the hub (without one of them, both refuse while any are pending).
struct PendingChangesFlags: ParsableArguments {
    @Flag(help: "Upload pending changes first (with progress), then go on.") var wait = false
    @Flag(help: "Go on and keep pending changes: they still upload to the event they were recorded for, at the next sign-in if need be.") var keep = false
    @Flag(help: "Drop pending changes (logged with their count), then go on.") var discard = false

    func validate() throws {
        if [wait, keep, discard].filter({ $0 }).count > 1 { throw ValidationError("Choose one of --wait, --keep, --discard.") }
    }

    var choice: PendingChangesChoice? { wait ? .wait : keep ? .keep : discard ? .discard : nil }
}
