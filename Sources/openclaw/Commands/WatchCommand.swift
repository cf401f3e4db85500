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
        let watcher = Watcher(context: context, options: try ConnectionSetup.sessionOptions(for: context))
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

/// `watch`'s face of the engine's driver: it follows each connection and reports what the machine
/// decided (`connected`, `disconnected`, `connect-failed`, `reconnected`, `gave-up`).
final class Watcher {
    let context: CommandContext
    let options: SessionOptions
    let filter: WatchFilter
    /// The engine's rules: backoff, `--max-retries`, no reconnect with `--no-reconnect`.
    private let rules: ConnectionLife.Rules
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
        // A gateway that is suspended, restarting or starting is one more reason to reconnect: paced by
        // the backoff, not by one-shot waits.
        var rules = context.connectRules()
        rules.reconnect(base: watch.backoffBase ?? 1, maximum: watch.backoffMax ?? 30, maxRetries: watch.maxRetries)
        rules.reconnects = !watch.noReconnect
        rules.waitsOutUnavailable = false
        rules.retriesRefused = false
        self.rules = rules
        clientEvents = watch.clientEvents
        resync = watch.resync
        count = watch.count
        untilFinal = watch.untilFinal
        subscribeSessions = watch.sessions
        subscribeMessages = watch.messages
    }

    /// Runs the engine's driver (`ConnectionRunner`): connect, follow, and on a loss wait as the machine
    /// decides and connect again, or end as it decides.
    func run() throws {
        let runner = context.link.start(options, rules: rules, notes: true)
        context.link.onReconnectWait = { [unowned self] afterFailedConnect, seconds, error in
            reportWait(afterFailedConnect: afterFailedConnect, seconds: seconds, error: error, failures: runner.life.failures)
        }
        defer { context.link.onReconnectWait = nil }
        do {
            try runner.run { session, isReconnect in
                context.opened(session)
                reportConnected(session.hello, isReconnect: isReconnect, failures: runner.life.failures)
                return try follow(session, runner: runner, isReconnect: isReconnect)
            }
        } catch let stop as ConnectStop {
            throw ending(stop, failures: runner.life.failures)
        }
    }

    /// `connected` (first) or `reconnected` (with the attempts it took), as client events.
    private func reportConnected(_ hello: HelloOk, isReconnect: Bool, failures: Int) {
        if isReconnect {
            report("reconnected", "reconnected to \(options.url)", ["attempts": JSONValue(failures + 1)])
        } else {
            var fields: JSONObject = ["protocol": JSONValue(hello.protocolVersion)]
            if let version = hello.serverVersion { fields["serverVersion"] = .string(version) }
            if let id = hello.connectionID { fields["connId"] = .string(id) }
            report("connected", nil, fields)
        }
    }

    /// The machine decided to wait before the next attempt: said on stderr and with `--client-events`.
    private func reportWait(afterFailedConnect: Bool, seconds: Double, error: GatewayError, failures: Int) {
        let reason = FailureMessages.sentence(for: error)
        // Waiting out a gateway that is suspended, restarting or starting is quiet on stderr.
        let passing = Self.isPassing(error)
        if afterFailedConnect {
            report("connect-failed", passing ? nil : "\(reason); retrying in \(formatDelay(seconds))",
                   ["attempt": JSONValue(failures), "delayMs": JSONValue(Int(seconds * 1000)),
                    "code": .string(Self.code(of: error)), "message": .string(reason)])
        } else {
            report("disconnected", passing ? nil : "\(reason); reconnecting in \(formatDelay(seconds))",
                   ["reason": .string(reason), "delayMs": JSONValue(Int(seconds * 1000))])
        }
    }

    /// A gateway that is suspended, restarting or starting and said when to come back: its refusals
    /// are waits, not news (the disconnect that came before them was reported).
    static func isPassing(_ error: GatewayError) -> Bool {
        if case .unavailable = error { return error.retryAfterSeconds != nil }
        return false
    }

    /// How the watch ends when the machine ends it: after `--max-retries` failed attempts in a row a
    /// `gave-up` line, then exit 3; a signal ends it as anywhere else; an error not worth retrying ends
    /// the watch with it.
    private func ending(_ error: any Error, failures: Int) -> any Error {
        guard let stop = error as? ConnectStop else { return error }
        switch stop {
        case .ended(.gaveUp(let error, let retries)):
            let reason = FailureMessages.sentence(for: error)
            report("gave-up", nil, ["attempts": JSONValue(failures), "code": .string(Self.code(of: error)),
                                    "message": .string(reason)])
            return CommandFailure(.connection, "\(reason) (gave up after \(retries) retries)")
        case .ended(.outOfTime):
            return context.timeoutFailure("watching")
        case .ended(.interrupted), .ended(.closed):
            try? context.console.flushOutput()
            return WatchFinished()
        default:
            return context.link.failure(stop)
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
    private func follow(_ session: GatewaySession, runner: ConnectionRunner, isReconnect: Bool) throws -> GatewayError {
        let context = self.context
        let hello = session.hello
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
                if let seq, let expected = runner.eventGap { reportGap(expected: expected, received: seq, runID: nil) }
                if let gap = runs.record(frame), let received = frame.fields.runSeq {
                    reportGap(expected: gap.expected, received: received, runID: gap.runID)
                }
                let ended = frame.endsRun
                if ended { runs.end(frame) }
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
