import KioskStore
import Logging

extension SyncEngine {
    /// A sign-in refused before anything was sent (an insecure address, an unusable CA file).
    /// Without a live session the refusal becomes the station's sync state, so `kiosk status`
    /// and the console say why nothing syncs; a live session to another hub keeps its state.
    func refuseSignIn(_ error: SyncError) async {
        logger.warning("hub address refused", metadata: ["reason": "\(error)"])
        guard session == nil || session?.signedOut == true else { return }
        lastError = error.description
        if case .insecureHubURL = error { monitor.refusedInsecure() }
        await publish()
    }
}
