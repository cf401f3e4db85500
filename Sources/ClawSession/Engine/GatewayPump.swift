@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol

/// The wait of every connection, the CLI's and the library's: one poll(2) over the gateway's socket
/// and the caller's own descriptors (the CLI's signal pipe and stdin; the library's wake-up and close
/// pipes). While the caller's consumer is behind (a blocked stdout, a full event buffer) the socket is
/// only read ahead, pongs answered, up to `GatewaySession.readAheadLimit`: a slow consumer is not a
/// silent gateway. What keeps the link alive (pings, the silence limit) is the machine's
/// (`ConnectionLife.linkCheck`); the pump tells it whether the gateway was heard since the last wait.
///
/// Frames come from `take()`, which never waits; the caller takes what is there before it waits.
@_spi(Engine) public final class GatewayPump {
    @_spi(Engine) public let session: GatewaySession
    /// A frame was taken since the last wait: the link check hears of it at the next wait, not per
    /// frame (no clock read per frame). Unchecked, as every per-frame field here: a class's stored
    /// property otherwise pays a runtime exclusivity check per access (`make bench` measures `watch`).
    @exclusivity(unchecked) private var sawFrame = false
    /// Set at the first wait after a frame was taken: the per-frame path only sets `sawFrame`.
    @exclusivity(unchecked) private var heardBeforeLastWait = false
    /// A frame arrived after hello-ok (the reconnect rule's "healthy").
    @_spi(Engine) public var heardAfterHello: Bool { heardBeforeLastWait || sawFrame }
    private let clock: any EngineClock

    @_spi(Engine) public init(session: GatewaySession, clock: any EngineClock = SystemEngineClock.shared) {
        self.session = session
        self.clock = clock
    }

    /// A frame already received, or nil; never waits (the read, when one is needed, polls with a zero
    /// timeout).
    @inline(__always)
    @_spi(Engine) public func take() throws(GatewayError) -> GatewayFrame? {
        guard let frame = try session.receive(deadline: Deadline(nanoseconds: 0)) else { return nil }
        sawFrame = true
        return frame
    }

    /// Whether the gateway was heard since the last wait (a frame taken, or the consumer behind: then
    /// the socket is being read ahead), for the machine's link check before this wait.
    @_spi(Engine) public func heardSinceLastWait(consumerBehind: Bool) -> Bool {
        guard sawFrame || consumerBehind else { return false }
        heardBeforeLastWait = heardBeforeLastWait || sawFrame
        sawFrame = false
        return true
    }

    /// Waits until the socket has input, `first` or `second` is readable (a negative descriptor is not
    /// watched), or `deadline` passes (the caller's, or the machine's next link check). With
    /// `consumerBehind` the socket is read ahead instead, and is watched only while there is room.
    @_spi(Engine) public func wait(_ first: Int32, _ second: Int32, until deadline: Deadline, consumerBehind: Bool = false)
        throws(GatewayError) -> (first: Bool, second: Bool) {
        let socketHasRoom = consumerBehind ? session.readAhead() : true
        let socket = socketHasRoom && session.isOpen ? session.fileDescriptor : -1
        do {
            let ready = try clock.readable(socket, first, second, until: deadline)
            return (ready.second, ready.third)
        } catch {
            throw .connectionLost("poll failed: errno \(error.code)", closeCode: nil)
        }
    }

    /// What `waitUntilWritable` saw.
    @_spi(Engine) public enum OutputWait {
        /// The output may take bytes (or failed: the next write says how).
        case writable
        /// `alert` turned readable first (a signal).
        case alerted
        /// `deadline` passed with the output still blocked.
        case timedOut
    }

    /// While `output` is blocked by a slow reader: waits until it takes bytes, reading the socket ahead
    /// meanwhile (pongs go out at once, messages are kept for later, up to the read-ahead limit), until
    /// `alert` is readable (negative: not watched), or until `deadline`.
    @_spi(Engine) public func waitUntilWritable(_ output: Int32, alert: Int32 = -1, until deadline: Deadline = .never) -> OutputWait {
        var reading = true
        while true {
            let socket = reading && session.isOpen ? session.fileDescriptor : -1
            guard let ready = clock.writableOrReadable(output: output, input: socket, alert: alert, until: deadline) else { return .writable }
            if ready.writable { return .writable }
            if ready.alerted { return .alerted }
            if ready.readable { reading = session.readAhead() } else if clock.hasPassed(deadline) { return .timedOut }
        }
    }
}
