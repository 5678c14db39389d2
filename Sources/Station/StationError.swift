/// Failures of the station's start-up and configuration, each saying what to do.
public enum StationError: Error, Sendable, Equatable, CustomStringConvertible {
    case unusableInput(String)
    case configuration(file: String, line: Int, reason: String)
    case notBuiltIn(String)

    public var description: String {
        switch self {
        case .unusableInput(let reason): reason
        case .configuration(let file, let line, let reason): "\(file):\(line): \(reason). Fix the configuration file and restart the station."
        case .notBuiltIn(let what): what
        }
    }
}
