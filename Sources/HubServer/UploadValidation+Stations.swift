import HubAPI

extension UploadValidation {
    /// A station's health report: every string within ``UploadLimits`` (422 naming the field),
    /// a name, a version and state words present, a pending count that is a count. Its time is
    /// the station's clock as it is (a wrong clock is what the list should show), not checked.
    static func stationReport(_ report: StationReport) throws {
        try required(report.name, "name", UploadLimits.stationCharacters)
        try required(report.version, "version", UploadLimits.versionCharacters)
        guard report.pending >= 0 else { throw HubProblem.invalid("pending", "A count of changes, 0 or more.") }
        for (path, part) in [("printer", report.printer), ("camera", report.camera)] {
            guard let part else { continue }
            try required(part.state, path + ".state", UploadLimits.stateCharacters)
            try text(part.words, path + ".words", UploadLimits.stateWordsCharacters)
        }
        try text(report.staffName, "staffName", UploadLimits.operatorNameCharacters)
    }

    private static func required(_ value: String, _ path: String, _ limit: Int) throws {
        guard !value.isEmpty, !exceeds(value, limit), !value.unicodeScalars.contains(where: \.properties.isNoncharacterCodePoint) else {
            throw HubProblem.invalid(path, "1 to \(limit) characters.")
        }
        try text(value, path, limit)
    }
}
