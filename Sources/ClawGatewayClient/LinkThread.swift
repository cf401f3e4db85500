@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// What a long-lived client hears from its I/O thread, as it happens.
protocol LinkObserver: AnyObject, Sendable {
    func connecting(attempt: Int)
    /// A new connection: lend it the client's buffers, hand it to those waiting, subscribe again.
    func connected(_ driver: ConnectionDriver)
    func disconnected(_ driver: ConnectionDriver)
    func waiting(_ seconds: Double, reason: GatewayClientError)
}

/// The library's face of the engine's driver (`ConnectionRunner`): one thread that connects, follows
/// the open connection for its async callers (`ConnectionDriver`: requests out, answers and events to
/// their buffers, a consumer behind slowing the reads), and, for a long-lived client, connects again
/// as the machine decides. A close request (`cancelled`) interrupts every wait.
final class LinkThread: ConnectionFace, @unchecked Sendable {
    /// Readable when a caller queued work or made room.
    let wake: WakeSignal
    /// Readable once the link is to close: it alone interrupts the connect and the waits.
    private let cancelled: WakeSignal
    private let lock = TransportLock()
    private var closeRequested = false
    private var thread: JoinableThread?
    private let configuration: GatewayConfiguration
    private let options: SessionOptions
    private let rules: ConnectionLife.Rules
    private weak var observer: (any LinkObserver)?
    /// Why the thread ended (nil: closed by this side), once it has.
    private var outcome: GatewayClientError?? = nil
    private var outcomeWaiters: [CheckedContinuation<GatewayClientError?, Never>] = []
    /// The connection being followed (the I/O thread's alone).
    private var current: ConnectionDriver?
    /// This link's attempt holds a turn of the process-wide `HandshakeGate` (the I/O thread's alone).
    private var holdsHandshakeTurn = false
    /// A `shutdown` event on the current connection announced a restart, back after these seconds (0:
    /// no time said): the connection's end is then the gateway restarting, not a lost link.
    private var announcedRestart: Double?

    private init(_ configuration: GatewayConfiguration, rules: ConnectionLife.Rules, observer: (any LinkObserver)?)
        throws(GatewayClientError) {
        options = try configuration.sessionOptions()
        do {
            wake = try WakeSignal()
            cancelled = try WakeSignal()
        } catch {
            throw GatewayClientError(.connectionFailed, "cannot make a wake-up pipe: \(error)")
        }
        self.configuration = configuration
        self.rules = rules
        self.observer = observer
    }

    /// One connection: returns once the gateway has let us in (after the waits the configuration
    /// allows). Cancelling the calling task stops the attempt at once.
    static func connect(_ configuration: GatewayConfiguration) async throws -> ConnectionDriver {
        let link = try LinkThread(configuration, rules: configuration.waits.rules(), observer: nil)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (connected: CheckedContinuation<ConnectionDriver, any Error>) in
                    link.start { connected.resume(with: $0) }
                }
            } onCancel: {
                link.requestClose()
            }
        } catch {
            link.join()
            throw error  // a GatewayClientError, or CancellationError when the task was cancelled
        }
    }

    /// A long-lived client's link: connects, and connects again as `configuration.reconnect` says,
    /// telling `observer`; ends when closed or when the machine gives up (`finished()`).
    static func start(_ configuration: GatewayConfiguration, observer: any LinkObserver) throws(GatewayClientError) -> LinkThread {
        let link = try LinkThread(configuration, rules: configuration.reconnect.rules(waits: configuration.waits), observer: observer)
        link.start(nil)
        return link
    }

    private func start(_ connected: (@Sendable (Result<ConnectionDriver, any Error>) -> Void)?) {
        do {
            let thread = try JoinableThread(name: "claw-io") { [self] in run(connected) }
            lock.withLock { self.thread = thread }
        } catch {
            let failure = GatewayClientError(.connectionFailed, "cannot start a thread: \(error)")
            connected?(.failure(failure))
            finish(failure)
        }
    }

    var isInterrupted: Bool { lock.withLock { closeRequested } }

    func requestClose() {
        lock.withLock { closeRequested = true }
        cancelled.signal()
    }

    /// Waits until the thread has ended; nil when this side closed the link.
    func finished() async -> GatewayClientError? {
        await withCheckedContinuation { (continuation: CheckedContinuation<GatewayClientError?, Never>) in
            let done: GatewayClientError?? = lock.withLock {
                if outcome == nil { outcomeWaiters.append(continuation) }
                return outcome
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// The thread resumes every waiter as its last act: joining takes no time.
    func join() {
        lock.withLock { thread }?.join()
    }

    private func finish(_ failure: GatewayClientError?) {
        let waiters = lock.withLock {
            outcome = .some(failure)
            defer { outcomeWaiters = [] }
            return outcomeWaiters
        }
        for waiter in waiters { waiter.resume(returning: failure) }
    }

    // MARK: - The I/O thread

    private func run(_ connected: (@Sendable (Result<ConnectionDriver, any Error>) -> Void)?) {
        let runner = ConnectionRunner(options: options, environment: configuration.environment ?? .current(), rules: rules,
                                      face: self, pingInterval: configuration.pingInterval.seconds)
        var waitingCaller = connected
        do {
            try runner.run { session, _ in
                leaveHandshakeGate()  // connected: the next connect's turn
                let driver = ConnectionDriver(link: self, hello: GatewayHello(session.hello), configuration: configuration)
                if let caller = waitingCaller {
                    waitingCaller = nil
                    if isInterrupted {
                        runner.close()
                        driver.end(with: nil)
                        caller(.failure(CancellationError()))
                        return nil
                    }
                    caller(.success(driver))
                }
                current = driver
                observer?.connected(driver)
                // Lost: ends this connection (connectionLost), and the runner waits as the machine decides.
                guard let lost = follow(driver, runner) else {
                    runner.close()
                    connectionEnded(nil)
                    return nil
                }
                return lost
            }
            finish(nil)
        } catch {
            leaveHandshakeGate()
            var failure: GatewayClientError? = nil
            if !isInterrupted, let stop = error as? ConnectStop {
                let limitRanOut = Deadline(nanoseconds: rules.deadline).hasPassed ? configuration.waits.limit : nil
                failure = GatewayClientError(stop: stop, deviceId: options.identity?.deviceId, limitRanOut: limitRanOut)
            }
            waitingCaller?(.failure(failure ?? CancellationError()))
            finish(failure)
        }
    }

    /// Sends queued requests, routes frames and keeps the link alive (the engine's `next`) until the
    /// connection ends: why, or nil when this side closed it.
    private func follow(_ driver: ConnectionDriver, _ runner: ConnectionRunner) -> GatewayError? {
        while true {
            // Work queued before a close still goes out first (an abort from a cancelled run).
            for item in driver.takeWork() {
                do {
                    try runner.session?.send(method: item.method, params: item.params, id: item.id, deadline: .after(seconds: 10))
                } catch {
                    // Too large for the gateway: only this request fails.
                    if case .invalidRequest = error { driver.fail(item.id, GatewayClientError(error)); continue }
                    return error
                }
            }
            if isInterrupted { return nil }
            var behind = driver.consumerIsBehind()
            do {
                // Frames already here, up to 256, before the queue is looked at again.
                var taken = 0
                while taken < 256 && !behind,
                      case .frame(let frame) = try runner.next(until: Deadline(nanoseconds: 0), alert: -1, input: -1) {
                    taken += 1
                    route(frame, driver, runner)
                    behind = driver.consumerIsBehind()
                }
                if taken > 0 { continue }
                let wakeUp = try runner.next(until: driver.expireRequests(), alert: cancelled.descriptor, input: wake.descriptor,
                                             consumerBehind: behind)
                switch consume wakeUp {
                case .frame(let frame): route(frame, driver, runner)
                case .input: wake.drain()
                case .alert, .timeout: break
                }
            } catch let error as GatewayError {
                return error
            } catch {
                return .connectionLost("\(error)", closeCode: nil)
            }
        }
    }

    private func route(_ frame: GatewayFrame, _ driver: ConnectionDriver, _ runner: ConnectionRunner) {
        if frame.eventName == GatewayEventName.shutdown {  // the runner tells the machine; this is for the words
            announcedRestart = ReconnectSchedule.restartDelay(announcedBy: frame.payload) ?? 0
        }
        driver.route(frame, eventGap: runner.eventGap)
    }

    private func connectionEnded(_ failure: GatewayClientError?) {
        guard let driver = current else { return }
        current = nil
        driver.end(with: failure)
        observer?.disconnected(driver)
    }

    // MARK: - ConnectionFace

    var interruptDescriptor: Int32 { cancelled.descriptor }

    func willConnect(attempt: Int) {
        observer?.connecting(attempt: attempt)
        // The attempt's connect limit starts once its turn comes; the overall limit bounds the wait.
        leaveHandshakeGate()
        holdsHandshakeTurn = HandshakeGate.shared.enter(until: Deadline(nanoseconds: rules.deadline), interrupt: cancelled.descriptor)
    }

    private func leaveHandshakeGate() {
        if holdsHandshakeTurn { HandshakeGate.shared.leave() }
        holdsHandshakeTurn = false
    }

    func connectionLost(_ error: GatewayError) {
        let restart = announcedRestart
        announcedRestart = nil
        guard let restart, case .connectionLost(let text, _) = error else { return connectionEnded(GatewayClientError(error)) }
        // Announced (`shutdown`, then close 1012): the gateway is restarting, and said when it is back.
        var failure = GatewayClientError(.gatewayRestarting, "the gateway is restarting (announced): \(text)",
                                         retryAfter: restart > 0 ? .milliseconds(Int(restart * 1000)) : nil)
        failure.engineReason = error
        connectionEnded(failure)
    }

    func sentence(for error: GatewayError) -> String { GatewayClientError(error).description }

    func sentence(for failure: SSHTunnelFailure, route: SSHRoute) -> String {
        GatewayClientError(tunnel: failure, target: "\(route.target)").description
    }

    func willWait(_ why: ConnectionLife.Wait, seconds: Double, after error: GatewayError) {
        leaveHandshakeGate()  // no turn is held through a wait
        observer?.waiting(seconds, reason: GatewayClientError(error))
    }

    /// A pairing wait can last minutes: no handshake turn is held through it.
    func pairing(_ pending: PendingPairing, approved: Bool) {
        if !approved { leaveHandshakeGate() }
    }
}
