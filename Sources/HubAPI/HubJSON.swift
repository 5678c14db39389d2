import Foundation

/// The JSON coding both sides use: keys exactly as the Swift property names (camelCase),
/// timestamps as integer milliseconds since the epoch (``CheckInCore/Timestamp``), and unknown
/// keys in requests refused by the hub (see ``ProblemDocument``).
public enum HubJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }
}
