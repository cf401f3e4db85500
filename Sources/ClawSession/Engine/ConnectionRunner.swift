@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawJSON

/// What a face (the CLI's command, the library's I/O thread) gives the driver: what interrupts it,
/// and its words for what the machine decided.
@_spi(Engine) public protocol ConnectionFace: AnyObject {
    /// Readable once the work is to end: the CLI's signal pipe, the library's close request.
    var interruptDescriptor: Int32 { get }
    /// Whether the work is to end now.
    var isInterrupted: Bool { get }
    /// Also ends the waits between attempts, as an interrupt, once it reports an error (negative:
    /// none): the CLI's stdout pipe, whose reader went away.
    var watchedOutput: Int32 { get }
    /// Attempt `attempt` (1 after a connection) starts.
    func willConnect(attempt: Int)
    /// The open connection ended with `error` (ssh's words added), before the machine decides what next.
    func connectionLost(_ error: GatewayError)
    /// The face's sentence for an error: the start of a lost tunnel's explanation.
    func sentence(for error: GatewayError) -> String
    /// The face's sentence for a tunnel that could not be opened.
    func sentence(for failure: SSHTunnelFailure, route: SSHRoute) -> String
    /// The machine decided to wait `seconds` after `error`, for the reason `why`: told before the wait.
    func willWait(_ why: ConnectionLife.Wait, seconds: Double, after error: GatewayError)
    /// Waiting on the connection the gateway keeps open for a pairing decision; again with
    /// `approved` once the approval came.
    func pairing(_ pending: PendingPairing, approved: Bool)
}

extension ConnectionFace {
    @_spi(Engine) public var watchedOutput: Int32 { -1 }
}

/// Why the driver stopped connecting.
@_spi(Engine) public enum ConnectStop: Error {
    /// The machine ended the life (an error not waited out, gave up, still unpaired, interrupted).
    case ended(ConnectionLife.Ending)
    /// The SSH step failed for good (no ssh, a refused host key or login, the deadline).
    case tunnel(SSHTunnelFailure, SSHRoute)
    /// The gateway decided the pairing it held the connection open for, and not as approved.
    case pairingDecided(PendingPairing.Decision, requestId: String?)
}

/// The one driver of a connection's life, for both faces: it performs what the machine
/// (`ConnectionLife`) decides — the SSH step, the connect, the waits between attempts, the pairing
/// wait, keepalive while following the open connection (`GatewayPump`), ssh's words for a lost
/// tunnel, closing — on the caller's thread (the CLI's main thread, the library's I/O thread).
/// A face follows the open connection with `next`, and tells `lost` how it ended.
@_spi(Engine) public final class ConnectionRunner {
    @_spi(Engine) public let options: SessionOptions
    @_spi(Engine) public private(set) var life: ConnectionLife
    /// The open connection, if any. Unchecked, as the pump: the per-frame path reads them, and a class's
    /// stored property otherwise pays a runtime exclusivity check per read (`make bench`, `watch`).
    @exclusivity(unchecked) @_spi(Engine) public private(set) var session: GatewaySession?
    @exclusivity(unchecked) private var pump: GatewayPump?
    private let connector: GatewayConnector
    private unowned let face: any ConnectionFace
    /// Every time the driver and its pump read or wait on (virtual in tests).
    private let clock: any EngineClock
    /// The latest attempt's tunnel failure that may pass: the one named when the life ends on it.
    private var passingTunnelFailure: SSHTunnelFailure?
    /// The event-gap rule: the number the frame just handed over should have had, when it skipped ahead
    /// (events were lost); nil otherwise. Only protocol 4 numbers each connection's events 1, 2, 3…;
    /// protocol 3 numbers broadcasts globally, where a skip is someone else's event.
    @exclusivity(unchecked) @_spi(Engine) public private(set) var eventGap: Int64?
    @exclusivity(unchecked) private var eventNumbers = SequenceTracker()
    @exclusivity(unchecked) private var numbersEventsPerConnection = false

    @_spi(Engine) public init(options: SessionOptions, environment: Environment, rules: ConnectionLife.Rules,
                              face: any ConnectionFace, pingInterval: Double = KeepAlive.defaultPingInterval,
                              random: @escaping @Sendable () -> Double = ConnectionLife.secureRandom,
                              clock: any EngineClock = SystemEngineClock.shared) {
        self.options = options
        self.face = face
        self.clock = clock
        var rules = rules
        rules.pingInterval = pingInterval
        life = ConnectionLife(rules, random: random)
        connector = GatewayConnector(options: options, environment: environment, interrupt: face.interruptDescriptor, clock: clock)
    }

    // MARK: The life

    /// The connection's whole life, the one loop both faces run: open (waiting as the machine decides),
    /// hand the session to `follow` until the connection is lost (its error) or the face ends the work
    /// (nil: closed, and `run` returns), then the machine's decision on the loss: wait and open again,
    /// or end, thrown as a `ConnectStop`. `follow` is told whether the session follows a lost one; what
    /// it throws ends the life as it is.
    @_spi(Engine) public func run(_ follow: (_ session: GatewaySession, _ isReconnect: Bool) throws -> GatewayError?) throws {
        while true {
            let isReconnect = life.wasConnected
            let session = try open()
            guard let lost = try follow(session, isReconnect) else {
                close()
                return
            }
            try self.lost(lost)
        }
    }

    // MARK: Connecting

    /// Connects: one attempt after another, with the waits the machine decides between them, until the
    /// gateway lets us in; throws what ended it.
    @_spi(Engine) public func open() throws(ConnectStop) -> GatewaySession {
        close()
        while true {
            _ = life.handle(.connecting)
            if case .connecting(let attempt) = life.state { face.willConnect(attempt: attempt) }
            var error: GatewayError
            switch try attempt() {
            case .opened(let session): return opened(session)
            case .failed(let failure): error = failure
            }
            if face.isInterrupted { throw .ended(interrupted()) }
            if case .authenticationFailed(.pairingPending(let pending), _) = error {
                // Approved: connect again at once. The held socket closed undecided: the machine says
                // when to ask again, as for any refusal of an unpaired device.
                guard let undecided = try waitForDecision(pending) else { continue }
                error = undecided
            }
            switch life.handle(.connectFailed(error, now: clock.now)) {
            case .retry(let at, let seconds, let why):
                face.willWait(why, seconds: seconds, after: error)
                try pause(until: Deadline(nanoseconds: at))
            case .carryOn, .ping, .closeSilentLink:
                continue  // not answers to a failed connect
            case .end(let ending):
                if case .failed = ending, let failure = passingTunnelFailure, let route = options.sshRoute {
                    throw .tunnel(failure, route)
                }
                throw .ended(ending)
            }
        }
    }

    /// How one attempt went. Not `Result`: a generic type's metadata is built at run time, with a
    /// conformance lookup that costs a one-shot command about 90,000 instructions.
    private enum Attempt {
        case opened(GatewaySession)
        case failed(GatewayError)
    }

    /// One attempt: the SSH step (a new tunnel), then the socket, TLS, upgrade and handshake.
    private func attempt() throws(ConnectStop) -> Attempt {
        let deadline = Deadline(nanoseconds: life.rules.deadline)
        passingTunnelFailure = nil
        let dial: SessionOptions
        do { dial = try connector.route(deadline: deadline) } catch {
            guard let route = options.sshRoute else { throw .ended(.failed(.cannotConnect("\(error)"))) }
            switch error.disposition {
            case .interrupted: throw .ended(interrupted())
            case .transient:
                passingTunnelFailure = error
                return .failed(.cannotConnect(face.sentence(for: error, route: route)))
            case .timedOut, .clientUnusable, .refused: throw .tunnel(error, route)
            }
        }
        do {
            return .opened(try connector.connect(dial, deadline: deadline))
        } catch {
            let explained = explain(error)
            connector.stopTunnel()
            return .failed(explained)
        }
    }

    private func opened(_ session: GatewaySession) -> GatewaySession {
        self.session = session
        pump = GatewayPump(session: session, clock: clock)
        eventNumbers = SequenceTracker()
        numbersEventsPerConnection = session.hello.protocolVersion >= 4
        eventGap = nil
        _ = life.handle(.connected(tickIntervalMs: session.hello.tickIntervalMs, now: clock.now))
        return session
    }

    /// Waits on the connection the gateway keeps open for the pairing decision (`device-pairing-wait`):
    /// nil once approved, the refusal to wait out when the gateway closed it undecided.
    private func waitForDecision(_ pending: PendingPairing) throws(ConnectStop) -> GatewayError? {
        defer { pending.close() }
        face.pairing(pending, approved: false)
        let deadline = Deadline(nanoseconds: life.rules.deadline)
        while true {
            if face.isInterrupted { throw .ended(interrupted()) }
            let decision: PendingPairing.Decision?
            do { decision = try pending.decision(deadline: Deadline(nanoseconds: 0)) } catch { throw .ended(.failed(error)) }
            switch decision {
            case .approved?:
                face.pairing(pending, approved: true)
                return nil
            case .closed(let code, _)? where code != WebSocketCloseCode.policyViolation:
                // Restarting or dropped: still unpaired, asked again after the machine's pause.
                return .authenticationFailed(.pairingRequired(requestId: pending.requestId, reason: pending.reason), nil)
            case let decided?:
                throw .pairingDecided(decided, requestId: pending.requestId)
            case nil:
                if clock.hasPassed(deadline) { throw .ended(.stillUnpaired(requestId: pending.requestId)) }
                let ready = try? clock.readable(pending.fileDescriptor, face.interruptDescriptor, face.watchedOutput, until: deadline)
                if ready?.third == true { throw .ended(interrupted()) }  // the face's output went away
            }
        }
    }

    /// Waits until `until` unless the face is interrupted (or its watched output goes away) first.
    private func pause(until: Deadline) throws(ConnectStop) {
        while !face.isInterrupted {
            if clock.hasPassed(until) { return }
            let ready = try? clock.readable(face.interruptDescriptor, face.watchedOutput, -1, until: until)
            if ready?.second == true { break }  // the face's output went away
        }
        throw .ended(interrupted())
    }

    private func interrupted() -> ConnectionLife.Ending {
        close()
        _ = life.handle(.interrupted)
        return .interrupted
    }

    // MARK: The open connection

    /// What woke the follow loop.
    @_spi(Engine) public enum Wake {
        case frame(GatewayFrame)
        /// The face's `alert` descriptor is readable (a signal, a close request).
        case alert
        /// The face's `input` descriptor is readable (stdin, a wake-up).
        case input
        case timeout
    }

    /// A frame already received, or nil; never waits: `next`'s first step, for a face's per-frame path.
    @inline(__always)
    @_spi(Engine) public func take() throws(GatewayError) -> GatewayFrame? {
        guard let frame = try pump?.take() else { return nil }
        note(frame)
        return frame
    }

    /// Every frame passes here, so that no face has to remember the rules: a `shutdown` event tells the
    /// machine when the gateway will be back (`restartExpectedMs`); an event's number is checked for a gap.
    @inline(__always)
    private func note(_ frame: GatewayFrame) {
        if numbersEventsPerConnection, case .event(_, let seq?) = frame.kind { eventGap = eventNumbers.record(seq) } else { eventGap = nil }
        if frame.fields.event?.word == .shutdown { _ = life.handle(.restartAnnounced(seconds: ReconnectSchedule.restartDelay(announcedBy: frame.payload))) }
    }

    /// One step of following the open connection: a frame already received, else a wait over the
    /// socket and the face's `alert` and `input` descriptors (negative: not watched) until `deadline`,
    /// keeping the link alive meanwhile. While the consumer is behind, frames are only read ahead.
    /// `beforeWait` runs before each wait (the CLI flushes stdout there).
    @_spi(Engine) public func next(until deadline: Deadline, alert: Int32, input: Int32, consumerBehind: Bool = false,
                                   beforeWait: () throws -> Void = {}) throws -> Wake {
        guard let pump, let session else { throw GatewayError.connectionLost("the connection is closed", closeCode: nil) }
        while true {
            if !consumerBehind {
                if let frame = try pump.take() {
                    note(frame)
                    return .frame(frame)
                }
                if !session.isOpen { continue }  // the next receive reports how it ended
            }
            try beforeWait()
            // Frames read while the consumer was behind (pings answered meanwhile) are taken before waiting.
            if !consumerBehind && session.hasBufferedInput { continue }
            if clock.hasPassed(deadline) { return .timeout }
            // The machine's link check, then one wait until the earlier of the caller's deadline and
            // the machine's next one (a ping due, the silence limit).
            switch life.handle(.linkCheck(now: clock.now, heard: pump.heardSinceLastWait(consumerBehind: consumerBehind))) {
            case .ping: try session.ping(deadline: clock.deadline(after: 5))
            case .closeSilentLink(let error):
                session.close(code: 4000, reason: "tick timeout")
                throw error
            case .carryOn, .retry, .end: break
            }
            let ready = try pump.wait(alert, input, until: min(deadline, Deadline(nanoseconds: life.nextDeadline)),
                                      consumerBehind: consumerBehind)
            if ready.first { return .alert }
            if ready.second { return .input }
        }
    }

    /// A face's wait without a connection: until `alert` or `input` is readable (or the wait fails: the
    /// input's read says how), or `deadline` passes, or a signal interrupts it (`.timeout`, early).
    @_spi(Engine) public static func wait(alert: Int32, input: Int32, until deadline: Deadline) -> Wake {
        let clock = SystemEngineClock.shared
        if clock.hasPassed(deadline) { return .timeout }
        guard let ready = try? clock.readable(-1, alert, input, until: deadline) else { return .input }
        return ready.second ? .alert : ready.third ? .input : .timeout
    }

    /// What a wait for a blocked output saw.
    @_spi(Engine) public typealias OutputWait = GatewayPump.OutputWait

    /// Waits until `output` may take bytes, reading the open connection ahead meanwhile (pongs go out at
    /// once), until `alert` is readable or `deadline` passes.
    @_spi(Engine) public func waitUntilWritable(_ output: Int32, alert: Int32, until deadline: Deadline) -> OutputWait {
        if let pump { return pump.waitUntilWritable(output, alert: alert, until: deadline) }
        return Self.waitUntilWritable(output, alert: alert, until: deadline)
    }

    /// The same wait without a connection.
    @_spi(Engine) public static func waitUntilWritable(_ output: Int32, alert: Int32, until deadline: Deadline) -> OutputWait {
        guard let ready = SystemEngineClock.shared.writableOrReadable(output: output, input: -1, alert: alert, until: deadline)
        else { return .writable }
        if ready.writable { return .writable }
        return ready.alerted ? .alerted : .timedOut
    }

    /// The open connection ended with `error`: closed, its tunnel explained (ssh's words) and stopped,
    /// then the machine's decision: a wait (the face told, then taken) before `open()` again, or the
    /// ending. Returns the explained error.
    @discardableResult
    @_spi(Engine) public func lost(_ error: GatewayError) throws(ConnectStop) -> GatewayError {
        if pump?.heardAfterHello == true { _ = life.handle(.heard) }
        let explained = explain(error)
        close()
        face.connectionLost(explained)
        switch life.handle(.lost(explained, now: clock.now)) {
        case .retry(let at, let seconds, let why):
            face.willWait(why, seconds: seconds, after: explained)
            try pause(until: Deadline(nanoseconds: at))
            return explained
        case .carryOn, .ping, .closeSilentLink:
            return explained  // not answers to a loss
        case .end(let ending):
            throw .ended(ending)
        }
    }

    /// Closes the open connection (a close frame with `code`) and stops its tunnel.
    @_spi(Engine) public func close(code: UInt16 = 1000, reason: String = "") {
        session?.close(code: code, reason: reason)
        session = nil
        pump = nil
        connector.stopTunnel()
    }

    /// A failure of the connection through the tunnel with ssh's own words: that it ended (the tunnel
    /// closed), or what it wrote since the forward was ready (a refused channel, a dead server).
    @_spi(Engine) public func explain(_ error: GatewayError) -> GatewayError {
        guard let tunnel = connector.tunnel else { return error }
        switch error {
        case .cannotConnect, .connectFailed, .connectionLost: break
        default: return error
        }
        let said: String
        // The forwarded socket closes as ssh exits; it is reaped a moment later.
        if let end = tunnel.termination ?? tunnel.waitForExit(seconds: 0.25) {
            said = tunnel.closedSentence(end)
        } else if !tunnel.laterErrorLines.isEmpty {
            said = "ssh: " + SSHTunnel.joined(tunnel.laterErrorLines)
        } else {
            return error
        }
        let why = "\(face.sentence(for: error)); \(said)"
        if case .connectionLost(_, let code) = error { return .connectionLost(why, closeCode: code) }
        return .cannotConnect(why)
    }
}
