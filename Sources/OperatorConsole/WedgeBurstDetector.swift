import Foundation

/// Tells a keyboard-wedge scanner's burst from a person typing, on the console's key stream.
///
/// Printable keys are held back while they could still be a scan. A scan is at least
/// ``WedgeThresholds/minLength`` characters, each no more than ``WedgeThresholds/maxKeyGap``
/// after the one before, ending in Enter within that gap: it comes out as one
/// ``TerminalInput/scanned(_:timing:)`` and none of its keys reach the open screen. Anything
/// else, a pause longer than the gap, a short burst, a non-character key, releases the held
/// keys unchanged and in order, then the key itself.
///
/// A pure value over arrival times (from any origin): the terminal feeds it keys as they are
/// read and calls ``expire(at:)`` when no key came by ``deadline``; tests script the times.
public struct WedgeBurstDetector: Sendable {
    public let thresholds: WedgeThresholds
    private var held: [(character: Character, arrival: Duration)] = []
    /// A run of keys too long for a ticket (a paste): it is typed until the next pause.
    private var overflowing = false
    private var lastArrival: Duration?

    /// More characters than any ticket code (256) with room for URL payloads.
    static let maximumBurst = 1024

    public init(thresholds: WedgeThresholds) {
        self.thresholds = thresholds
    }

    /// When the held keys must be released if no key arrives before: the last one's arrival
    /// plus the gap. `nil` while nothing is held.
    public var deadline: Duration? {
        held.last.map { $0.arrival + thresholds.maxKeyGap }
    }

    /// A key read from the terminal.
    /// - Parameter arrival: when it arrived; a key that was already waiting when the previous
    ///   one was read shares that one's arrival (both came in one write).
    public mutating func receive(_ key: Key, at arrival: Duration) -> [TerminalInput] {
        guard thresholds.isEnabled else { return [.key(key)] }
        defer { lastArrival = arrival }
        let paused = lastArrival.map { arrival - $0 > thresholds.maxKeyGap } ?? true
        var released: [TerminalInput] = paused ? release() : []
        if paused { overflowing = false }
        switch key {
        case .character(let character):
            if overflowing { return released + [.key(key)] }
            held.append((character, arrival))
            if held.count > Self.maximumBurst {
                overflowing = true
                released += release()
            }
            return released
        case .enter:
            overflowing = false
            guard held.count >= thresholds.minLength else { return released + release() + [.key(key)] }
            let code = String(held.map(\.character)).trimmingCharacters(in: .whitespaces)
            guard !code.isEmpty else { return released + release() + [.key(key)] }
            let timing = ScanTiming(arrivals: held.map(\.arrival) + [arrival])
            held.removeAll()
            return released + [.scanned(code, timing: timing)]
        default:
            overflowing = false
            return released + release() + [.key(key)]
        }
    }

    /// No key arrived: once the deadline has passed, the held keys were typed by a person.
    public mutating func expire(at now: Duration) -> [TerminalInput] {
        guard let deadline, now >= deadline else { return [] }
        return release()
    }

    private mutating func release() -> [TerminalInput] {
        defer { held.removeAll() }
        return held.map { .key(.character($0.character)) }
    }
}
