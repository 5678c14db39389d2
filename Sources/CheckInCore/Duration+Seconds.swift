extension Duration {
    /// The duration in seconds, as a figure to print or compare (benchmarks, timings).
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
