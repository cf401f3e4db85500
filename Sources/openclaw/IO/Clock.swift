import ClawSystem
import ClawJSON
import ClawCrypto
import ClawTransport
import ClawProtocol
import ClawState
import ClawSession

/// The wall clock as a value in the command context, for the `ts` of trace and client-event lines.
struct Clock: Sendable {
    var milliseconds: @Sendable () -> Int64

    static let system = Clock(milliseconds: { WallClock.milliseconds() })
}
