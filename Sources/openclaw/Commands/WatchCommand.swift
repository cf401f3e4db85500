@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `openclaw watch`: a self-healing event stream. See docs/cli.md "watch".
enum WatchCommand {
    static func run(_ context: CommandContext) throws {
        let options = context.options.watch
        if options.noReconnect && options.maxRetries != nil {
            throw CommandFailure(.usage, "--no-reconnect and --max-retries contradict each other; give one")
        }
        var watcher = Watcher(context: context, options: try ConnectionSetup.sessionOptions(for: context))
        do { try watcher.run() } catch is WatchFinished { return }
    }
}

/// Thrown to end the watch successfully (count reached, run ended, signal).
struct WatchFinished: Error {}

/// Which events `watch` prints.
struct WatchFilter {
    /// nil: every event except `tick`.
    var names: Set<String>?
    var session: String?
    var run: String?

    init(_ options: WatchOptions, session: String?) {
        let events = options.events
        names = events.isEmpty || events.contains("*") ? (events.contains("*") ? [] : nil) : Set(events)
        self.session = session
        run = options.run
    }

    func accepts(_ name: String, frame: GatewayFrame, hello: HelloOk) -> Bool {
        if let names {
            if !names.isEmpty && !names.contains(name) { return false }
        } else if frame.fields.event?.word == .tick {
            return false
        }
        if session != nil || run != nil {
            // Run events, and the subscription events that name a session (sessions.changed, session.message).
            guard frame.isRunEvent || GatewayEventName.isSessionEvent(name) else { return false }
            if let run, frame.runId != run { return false }
            if let session {
                guard let key = frame.sessionKey,
                      SessionKey.same(key, session, mainSessionKey: hello.mainSessionKey, mainKey: hello.mainKey)
                else { return false }
            }
        }
        return true
    }
}

struct Watcher {
    let context: CommandContext
    let options: SessionOptions
    let filter: WatchFilter
    /// The engine's connection life: backoff, `--max-retries`, a delay a `shutdown` announced, health.
    private var life: ConnectionLife
    let reconnects: Bool
    let clientEvents: Bool
    let resync: Bool
    let count: Int?
    let untilFinal: Bool
    let subscribeSessions: Bool
    let subscribeMessages: Bool
    private var printed = 0

    init(context: CommandContext, options: SessionOptions) {
        self.context = context
        self.options = options
        let watch = context.options.watch
        filter = WatchFilter(watch, session: context.global.session)
        var rules = ConnectionLife.Rules()
        rules.reconnects = true
        rules.schedule = ReconnectSchedule(backoff: Backoff(base: watch.backoffBase ?? 1, maximum: watch.backoffMax ?? 30),
                                           maxRetries: watch.maxRetries)
        life = ConnectionLife(rules)
        reconnects = !watch.noReconnect
        clientEvents = watch.clientEvents
        resync = watch.resync
        count = watch.count
        untilFinal = watch.untilFinal
        subscribeSessions = watch.sessions
        subscribeMessages = watch.messages
    }

    /// Drives the engine's connection life (`ConnectionLife`): connect, follow, and on a loss wait as it
    /// decides and connect again, or end as it decides.
    mutating func run() throws {
        while true {
            let session: GatewaySession
            life.connecting()
            do {
                session = try context.connect(options, waitsWhileUnavailable: false)
            } catch let error as GatewayError {
                guard reconnects else { throw error }
                let delay = try delayOrEnd(life.connectFailed(error, now: MonotonicClock.nanoseconds()))
                let reason = FailureMessages.sentence(for: error)
                // Waiting out a gateway that is suspended, restarting or starting is quiet on stderr.
                report("connect-failed", Self.isPassing(error) ? nil : "\(reason); retrying in \(formatDelay(delay))",
                       ["attempt": JSONValue(life.failures), "delayMs": JSONValue(Int(delay * 1000)),
                        "code": .string(Self.code(of: error)), "message": .string(reason)])
                try pause(delay)
                continue
            } catch let failure as CommandFailure where failure.status == .interrupted || failure.status == .terminated {
                try finish()  // a signal while connecting (an SSH tunnel opening, a starting gateway): as anywhere else
            }
            let hello = session.hello
            if life.wasConnected {
                report("reconnected", "reconnected to \(options.url)", ["attempts": JSONValue(life.failures + 1)])
            } else {
                var fields: JSONObject = ["protocol": JSONValue(hello.protocolVersion)]
                if let version = hello.serverVersion { fields["serverVersion"] = .string(version) }
                if let id = hello.connectionID { fields["connId"] = .string(id) }
                report("connected", nil, fields)
            }
            let isReconnect = life.wasConnected
            life.connected(tickIntervalMs: hello.tickIntervalMs, now: MonotonicClock.nanoseconds())
            let lost = context.sshTunnels.explain(try follow(session, isReconnect: isReconnect))
            // Explained once: its ssh goes now, not after the backoff (the dispatcher finds none left).
            context.sshTunnels.stopAll()
            guard reconnects else { throw lost }
            let delay = try delayOrEnd(life.lost(lost, now: MonotonicClock.nanoseconds()))
            let reason = FailureMessages.sentence(for: lost)
            report("disconnected", Self.isPassing(lost) ? nil : "\(reason); reconnecting in \(formatDelay(delay))",
                   ["reason": .string(reason), "delayMs": JSONValue(Int(delay * 1000))])
            try pause(delay)
        }
    }

    /// A gateway that is suspended, restarting or starting and said when to come back: its refusals
    /// are waits, not news (the disconnect that came before them was reported).
    static func isPassing(_ error: GatewayError) -> Bool {
        if case .unavailable = error { return error.retryAfterSeconds != nil }
        return false
    }

    /// The delay before the next attempt; after `--max-retries` failed attempts in a row a `gave-up`
    /// line, then exit 3; an error not worth retrying ends the watch with it.
    private func delayOrEnd(_ decision: ConnectionLife.Decision) throws -> Double {
        switch decision {
        case .retry(_, let seconds, _): return seconds
        case .end(.gaveUp(let error, let retries)):
            let reason = FailureMessages.sentence(for: error)
            report("gave-up", nil, ["attempts": JSONValue(life.failures), "code": .string(Self.code(of: error)),
                                    "message": .string(reason)])
            throw CommandFailure(.connection, "\(reason) (gave up after \(retries) retries)")
        case .end(.failed(let error)): throw error
        case .end: throw WatchFinished()
        }
    }

    /// A stable word for the kind of failure, for `--client-events` consumers.
    static func code(of error: GatewayError) -> String {
        switch error {
        case .cannotConnect, .connectFailed: return "cannot-connect"
        case .upgradeRejected(let status, _, _): return "http-\(status)"
        case .certificateRejected: return "certificate"
        case .connectionLost(_, let closeCode): return closeCode.map { "closed-\($0)" } ?? "connection-lost"
        case .authenticationFailed(_, let shape): return shape?.detailsCode ?? shape?.code ?? "auth"
        case .timedOut, .handshakeTimedOut, .handshakeStepTimedOut: return "timeout"
        case .protocolError: return "protocol"
        case .unavailable: return "UNAVAILABLE"
        case .admissionRefused: return "http-503"
        case .invalidRequest: return "invalid-request"
        }
    }

    /// Prints events from one connection until it is lost; returns why.
    private mutating func follow(_ session: GatewaySession, isReconnect: Bool) throws -> GatewayError {
        defer { session.close() }
        // A local copy: a non-mutating method of self called from here copies all of self (~1 KB) per call.
        let context = self.context
        let hello = session.hello
        var outer = SequenceTracker()
        var runs = RunSequences()
        var resyncID: String? = nil
        if isReconnect && resync {
            let params: JSONValue = [ChatField.sessionKey: .string(filter.session ?? "main")]
            do { resyncID = try session.send(method: GatewayMethod.chatHistory, params: params, deadline: context.deadline) } catch { return error }
        }
        // Subscriptions belong to a connection: made again after every reconnect.
        var subscriptions: [String: String] = [:]
        for (method, params) in subscriptionRequests {
            do { subscriptions[try session.send(method: method, params: params, deadline: context.deadline)] = method } catch { return error }
        }
        let loop = context.loop(session)
        while true {
            let event: LoopEvent
            do { event = try loop.next(until: context.deadline) }
            catch let error as GatewayError { return error }
            catch is OutputClosed { throw WatchFinished() }
            switch consume event {  // moved: the frame is not retained twice
            case .signal: try finish()
            case .input: continue
            case .timeout: throw context.timeoutFailure("watching")
            case .frame(let frame):
                life.heard()
                if let id = frame.responseID {
                    if let method = subscriptions.removeValue(forKey: id), let error = frame.error {
                        if context.raw { context.printFrame(frame) }
                        // Refused while the gateway suspends or restarts: subscribe again on a new connection.
                        if let wait = error.waitBeforeRetryMs {
                            return .unavailable("gateway unavailable: \(method) refused: \(error.message)", retryAfterMs: wait)
                        }
                        throw gatewayFailure(frame, method: method)
                    }
                    if id == resyncID { context.printFrame(frame); resyncID = nil }
                    else if context.raw { context.printFrame(frame) }
                    continue
                }
                guard case .event(let name, let seq) = frame.kind else {
                    if context.raw { context.printFrame(frame) }  // requests and frames of unknown types
                    continue
                }
                // v3 numbers broadcasts globally, so skips there are not loss of our data.
                if let seq, hello.protocolVersion >= 4, let expected = outer.record(seq) {
                    reportGap(expected: expected, received: seq, runID: nil)
                }
                if let gap = runs.record(frame), let received = frame.fields.runSeq {
                    reportGap(expected: gap.expected, received: received, runID: gap.runID)
                }
                let ended = frame.endsRun
                if ended { runs.end(frame) }
                if frame.fields.event?.word == .shutdown {
                    life.restartAnnounced(seconds: ReconnectSchedule.restartDelay(announcedBy: frame.payload))
                }
                guard filter.accepts(name, frame: frame, hello: hello) else { continue }
                Self.emit(frame, context: context)
                printed += 1
                if let count, printed >= count { try finish() }
                if untilFinal && ended { try finish() }
            }
        }
    }

    /// `--sessions` and `--messages`: what to subscribe to on each connection.
    private var subscriptionRequests: [(String, JSONValue)] {
        var requests: [(String, JSONValue)] = []
        if subscribeSessions { requests.append((GatewayMethod.sessionsSubscribe, [:])) }
        if subscribeMessages {
            requests.append((GatewayMethod.sessionsMessagesSubscribe, ["key": .string(filter.session ?? "main")]))
        }
        return requests
    }

    private static func emit(_ frame: GatewayFrame, context: CommandContext) {
        switch context.format {
        case .ndjson: context.printFrame(frame)
        case .text:
            guard frame.fields.event?.word == .chat, frame.fields.state?.word == .final else { return }
            let session = frame.sessionKey ?? "?"
            context.console.out.write("[\(session)] assistant: \(TranscriptText.text(of: frame.payload?[ChatField.message]))\n")
        }
    }

    /// Waits `seconds` between connections; a signal ends the watch (exit 0).
    private func pause(_ seconds: Double) throws {
        let until = min(Deadline.after(seconds: seconds), context.deadline)
        let event: LoopEvent
        do { event = try context.loop(nil).next(until: until) } catch { throw WatchFinished() }
        if case .signal = event { try finish() }
        if context.deadline.hasPassed { throw context.timeoutFailure("watching") }
    }

    private func finish() throws -> Never {
        try? context.console.flushOutput()
        throw WatchFinished()
    }

    private func reportGap(expected: Int64, received: Int64, runID: String?) {
        let scope = runID.map { " in run \($0)" } ?? ""
        var fields: JSONObject = ["expected": JSONValue(expected), "received": JSONValue(received)]
        if let runID { fields["runId"] = .string(runID) }
        report("gap", "sequence gap\(scope): expected \(expected), received \(received) (\(received - expected) event(s) missed)", fields)
    }

    /// A note on stderr (when there is one) and, with `--client-events`, a `{"type":"client",…}` line on stdout.
    private func report(_ event: String, _ message: String?, _ fields: JSONObject) {
        if let message { context.console.note(message) }
        guard clientEvents else { return }
        var line: JSONObject = ["type": "client", "event": .string(event), "ts": JSONValue(context.clock.milliseconds())]
        line.members.append(contentsOf: fields.members)
        var bytes = [UInt8]()
        JSONValue.object(line).write(to: &bytes)
        context.console.out.writeLine(bytes)
    }
}
