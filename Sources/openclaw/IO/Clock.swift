@_spi(Engine) import ClawSystem

/// The wall clock as a value in the command context, for the `ts` of trace and client-event lines.
struct Clock: Sendable {
    var milliseconds: @Sendable () -> Int64

    static let system = Clock(milliseconds: { WallClock.milliseconds() })
}
