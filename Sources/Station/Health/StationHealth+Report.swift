import RosterSync

extension StationHealth {
    /// The printer and camera as the health report to the hub carries them: the same state
    /// words and staff-facing words as `kiosk status --json` and the console.
    public var stationCondition: StationCondition {
        StationCondition(printer: StationCondition.Part(state: printerPart.state, words: printerPart.words),
                         camera: StationCondition.Part(state: cameraPart.state, words: cameraPart.words))
    }
}
