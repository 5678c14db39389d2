import CheckInCore

/// The sizes the hub accepts in uploads; a longer value is answered 422 naming the field.
///
/// The same limits as roster imports and the station's walk-in form, so nothing the hub
/// replicates to every station can be larger than a guest imported from CSV. Lengths count
/// characters (`String.count`).
public enum UploadLimits {
    /// Walk-in `name` (non-empty after trimming), `email` and `company`.
    public static let nameCharacters = 200
    public static let emailCharacters = 200
    public static let companyCharacters = 200
    /// `station` of every upload kind (the station's own name is 1 to 100 characters).
    public static let stationCharacters = 100
    /// `operatorName` of every upload kind.
    public static let operatorNameCharacters = 200
    /// Undo `reason`.
    public static let reasonCharacters = 500
    /// A device id, as issued or accepted by ``HubPaths/stations``; never contains `/`.
    public static let deviceIDCharacters = 100
    /// A guest id (the hub uses ticket codes as guest ids, so the code limit); never contains `/`.
    public static let guestIDCharacters = TicketCode.maximumLength
    /// A walk-in's `accessTypeID`.
    public static let accessTypeIDCharacters = 200
    /// A device secret (``StationRegistrationRequest/deviceSecret``): at least 16 characters of
    /// something random, at most 200.
    public static let deviceSecretCharacters = 16...200
    /// ``StationReport/version``.
    public static let versionCharacters = 50
    /// ``StationPart/state``.
    public static let stateCharacters = 50
    /// ``StationPart/words``.
    public static let stateWordsCharacters = 500
}
