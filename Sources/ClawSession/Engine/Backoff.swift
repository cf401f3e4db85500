/// Exponential backoff with jitter for reconnecting: base × 2^(attempt−1), capped, then up to a
/// quarter more at random so that many clients do not retry in step. Jitter only lengthens a
/// delay: the first retry never comes sooner than the base (the official client: 1 s, ×2, 30 s).
@_spi(Engine) public struct Backoff: Sendable {
    @_spi(Engine) public var base: Double
    @_spi(Engine) public var maximum: Double

    @_spi(Engine) public init(base: Double = 1, maximum: Double = 30) {
        self.base = base
        self.maximum = max(base, maximum)
    }

    /// The capped delay before attempt `attempt` (1-based), without jitter.
    @_spi(Engine) public func ceiling(attempt: Int) -> Double {
        let exponent = Double(min(max(attempt, 1) - 1, 60))
        return min(maximum, base * pow2(exponent))
    }

    /// The delay to wait: the ceiling plus up to 25 % jitter, never above `maximum`.
    @_spi(Engine) public func delay(attempt: Int, random: Double) -> Double {
        let ceiling = ceiling(attempt: attempt)
        return min(maximum, ceiling + ceiling / 4 * min(max(random, 0), 1))
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= 2 }
        return result
    }
}

/// Detects loss in a stream of sequence numbers (outer event `seq`, or a run's `seq`).
@_spi(Engine) public struct SequenceTracker: Sendable {
    @_spi(Engine) public private(set) var last: Int64?

    @_spi(Engine) public init() {}

    /// Records `seq`; returns the expected value when `seq` skipped ahead of it.
    @_spi(Engine) public mutating func record(_ seq: Int64) -> Int64? {
        defer { if last == nil || seq > last! { last = seq } }
        guard let last, seq > last + 1 else { return nil }
        return last + 1
    }

}
