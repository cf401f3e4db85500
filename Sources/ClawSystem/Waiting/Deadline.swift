import Glibc

/// A point on the monotonic clock by which an operation must finish.
@_spi(Engine) public struct Deadline: Sendable, Comparable {
    /// Nanoseconds on CLOCK_MONOTONIC; `UInt64.max` means never.
    @_spi(Engine) public let nanoseconds: UInt64

    @_spi(Engine) public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    @_spi(Engine) public static var now: Deadline { Deadline(nanoseconds: MonotonicClock.nanoseconds()) }
    @_spi(Engine) public static let never = Deadline(nanoseconds: .max)

    /// `seconds` from now; zero or less is `now`, infinity is `never`.
    @_spi(Engine) public static func after(seconds: Double) -> Deadline {
        guard seconds.isFinite else { return .never }
        guard seconds > 0 else { return .now }
        let delta = seconds * 1e9
        let start = MonotonicClock.nanoseconds()
        return delta >= Double(UInt64.max - start) ? .never : Deadline(nanoseconds: start + UInt64(delta))
    }

    @_spi(Engine) public var isNever: Bool { nanoseconds == .max }
    @_spi(Engine) public var hasPassed: Bool { !isNever && MonotonicClock.nanoseconds() >= nanoseconds }

    /// Milliseconds left, rounded up, as `poll(2)` wants them: -1 for never, 0 once passed.
    @_spi(Engine) public var pollTimeout: Int32 {
        if isNever { return -1 }
        let now = MonotonicClock.nanoseconds()
        guard nanoseconds > now else { return 0 }
        let ms = (nanoseconds - now + 999_999) / 1_000_000
        return ms > UInt64(Int32.max) ? Int32.max : Int32(ms)
    }

    /// The deadline as an absolute CLOCK_MONOTONIC time for `pthread_cond_timedwait`; nil for never.
    var monotonicTimespec: timespec? {
        isNever ? nil : timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    @_spi(Engine) public static func < (a: Deadline, b: Deadline) -> Bool { a.nanoseconds < b.nanoseconds }
}

@_spi(Engine) public enum MonotonicClock {
    @_spi(Engine) public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

@_spi(Engine) public enum WallClock {
    /// Milliseconds since the Unix epoch, as the protocol's `ts` fields use them.
    @_spi(Engine) public static func milliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// Seconds as people write them in flags: `30`, `2.5`.
@_spi(Engine) public func formatSeconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
