@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol

/// The wait of every connection, the CLI's and the library's: one poll(2) over the gateway's socket
/// and the caller's own descriptors (the CLI's signal pipe and stdin; the library's wake-up and close
/// pipes), keeping the link alive meanwhile: a ping every `pingInterval`, and a gateway silent for two
/// ticks closes the connection (4000) as lost. While the caller's consumer is behind (a blocked
/// stdout, a full event buffer) the socket is only read ahead, pongs answered, up to
/// `GatewaySession.readAheadLimit`: a slow consumer is not a silent gateway.
///
/// Frames come from `take()`, which never waits; the caller takes what is there before it waits.
@_spi(Engine) public final class GatewayPump {
    @_spi(Engine) public let session: GatewaySession
    /// Unchecked: a mutating call on a class's struct property otherwise pays a runtime exclusivity
    /// check before every wait (`make bench` measures `watch`'s cost per event), and nothing holds it
    /// across a call.
    @exclusivity(unchecked) private var keepAlive: KeepAlive
    /// A frame was taken since the last wait: the watchdog restarts at the next wait, not per frame
    /// (no clock read per frame).
    @exclusivity(unchecked) private var sawFrame = false
    /// Set at the first wait after a frame was taken: the per-frame path only sets `sawFrame`.
    @exclusivity(unchecked) private var heardBeforeLastWait = false
    /// A frame arrived after hello-ok (the reconnect rule's "healthy").
    @_spi(Engine) public var heardAfterHello: Bool { heardBeforeLastWait || sawFrame }
    private let clock: any EngineClock

    @_spi(Engine) public init(session: GatewaySession, pingInterval: Double = KeepAlive.defaultPingInterval,
                              clock: any EngineClock = SystemEngineClock.shared) {
        self.session = session
        self.clock = clock
        keepAlive = KeepAlive(tickIntervalMs: session.hello.tickIntervalMs, pingInterval: pingInterval, now: clock.now)
    }

    /// A frame already received, or nil; never waits (the read, when one is needed, polls with a zero
    /// timeout).
    @inline(__always)
    @_spi(Engine) public func take() throws(GatewayError) -> GatewayFrame? {
        guard let frame = try session.receive(deadline: Deadline(nanoseconds: 0)) else { return nil }
        sawFrame = true
        return frame
    }

    /// Waits until the socket has input, `first` or `second` is readable (a negative descriptor is not
    /// watched), `deadline` passes, or the keepalive needs a turn; pings when one is due; throws the
    /// silence error (after closing 4000) when the gateway has been quiet too long. With
    /// `consumerBehind` the socket is read ahead instead, and is watched only while there is room.
    @_spi(Engine) public func wait(_ first: Int32, _ second: Int32, until deadline: Deadline, consumerBehind: Bool = false)
        throws(GatewayError) -> (first: Bool, second: Bool) {
        let now = clock.now
        if sawFrame || consumerBehind {
            heardBeforeLastWait = heardBeforeLastWait || sawFrame
            keepAlive.heardFromGateway(now: now)
            sawFrame = false
        }
        let socketHasRoom = consumerBehind ? session.readAhead() : true
        switch keepAlive.due(now: now) {
        case .nothing: break
        case .ping: try session.ping(deadline: clock.deadline(after: 5))
        case .silence:
            session.close(code: 4000, reason: "tick timeout")
            throw keepAlive.silenceError
        }
        let socket = socketHasRoom && session.isOpen ? session.fileDescriptor : -1
        do {
            let ready = try clock.readable(socket, first, second, until: min(deadline, Deadline(nanoseconds: keepAlive.nextCheck)))
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
