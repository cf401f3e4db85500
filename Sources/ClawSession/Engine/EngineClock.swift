@_spi(Engine) import ClawSystem

/// The engine's one clock: the driver (`ConnectionRunner`) and its pump read the time and wait on
/// their descriptors only through it, so that a connection's whole life — the connect deadline, the
/// waits between attempts, pings, the silence watchdog, the pairing limit — can run in virtual time in
/// tests, as swift-nio's `EmbeddedEventLoop.advanceTime` runs an event loop. `SystemEngineClock` is the
/// real one; a test's clock jumps to the deadline of a wait on which nothing is ready.
@_spi(Engine) public protocol EngineClock: AnyObject {
    /// Now, in nanoseconds.
    var now: UInt64 { get }
    /// Waits until one of the descriptors (negative: not watched) is readable, with errors and hang-ups,
    /// or `deadline` passes; a signal may end it early with nothing ready. Throws the wait's error.
    func readable(_ first: Int32, _ second: Int32, _ third: Int32, until deadline: Deadline)
        throws(SystemError) -> (first: Bool, second: Bool, third: Bool)
    /// Waits until `output` may take bytes, `input` or `alert` is readable (negative: not watched), or
    /// `deadline` passes (all false); nil when the wait failed.
    func writableOrReadable(output: Int32, input: Int32, alert: Int32, until deadline: Deadline)
        -> (writable: Bool, readable: Bool, alerted: Bool)?
}

extension EngineClock {
    /// Whether `deadline` has passed on this clock.
    @inline(__always)
    @_spi(Engine) public func hasPassed(_ deadline: Deadline) -> Bool { !deadline.isNever && now >= deadline.nanoseconds }

    /// `seconds` from now on this clock.
    @_spi(Engine) public func deadline(after seconds: Double) -> Deadline {
        Deadline(nanoseconds: KeepAlive.after(seconds, from: now))
    }
}

/// The monotonic clock and poll(2): the engine's only reading of real time.
@_spi(Engine) public final class SystemEngineClock: EngineClock, Sendable {
    @_spi(Engine) public static let shared = SystemEngineClock()

    private init() {}

    @_spi(Engine) public var now: UInt64 { MonotonicClock.nanoseconds() }

    @_spi(Engine) public func readable(_ first: Int32, _ second: Int32, _ third: Int32, until deadline: Deadline)
        throws(SystemError) -> (first: Bool, second: Bool, third: Bool) {
        let ready = try Poll.readable(first, second, third, until: deadline)
        return (ready.first, ready.second, ready.third)
    }

    @_spi(Engine) public func writableOrReadable(output: Int32, input: Int32, alert: Int32, until deadline: Deadline)
        -> (writable: Bool, readable: Bool, alerted: Bool)? {
        Poll.writableOrReadable(output: output, input: input, alert: alert, until: deadline)
    }
}
