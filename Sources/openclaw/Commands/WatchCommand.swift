import Glibc
import OpenClawKit

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

    func accepts(_ name: String, header: JSONFrameHeader, hello: HelloOk) -> Bool {
        if let names {
            if !names.isEmpty && !names.contains(name) { return false }
        } else if name == GatewayEventName.tick {
            return false
        }
        if session != nil || run != nil {
            guard GatewayEventName.isRunEvent(name) else { return false }
            if let run, header.runId != run { return false }
            if let session {
                guard let key = header.sessionKey,
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
    let backoff: Backoff
    let maxRetries: Int?
    let reconnects: Bool
    let clientEvents: Bool
    let resync: Bool
    let count: Int?
    let untilFinal: Bool
    private var printed = 0
    /// Delay asked for by a `shutdown` event, used once for the next reconnect.
    private var restartDelay: Double?

    static let pingInterval = 15.0
    /// Bounds memory over days of runs that never end visibly.
    static let maxTrackedRuns = 4096

    init(context: CommandContext, options: SessionOptions) {
        self.context = context
        self.options = options
        let watch = context.options.watch
        filter = WatchFilter(watch, session: context.global.session)
        backoff = Backoff(base: watch.backoffBase ?? 1, maximum: watch.backoffMax ?? 30)
        maxRetries = watch.maxRetries
        reconnects = !watch.noReconnect
        clientEvents = watch.clientEvents
        resync = watch.resync
        count = watch.count
        untilFinal = watch.untilFinal
    }

    /// The state machine: connecting → connected → (lost) → reconnecting → connecting …
    mutating func run() throws {
        var failures = 0
        var everConnected = false
        while true {
            let session: GatewaySession
            do {
                session = try context.connect(options)
            } catch {
                guard error.isRetryable, reconnects else { throw CommandFailure(error) }
                failures += 1
                if let maxRetries, failures > maxRetries {
                    throw CommandFailure(ExitStatus(error), "\(FailureMessages.sentence(for: error)) (gave up after \(maxRetries) retries)")
                }
                let delay = restartDelay ?? backoff.delay(attempt: failures)
                restartDelay = nil
                report("connect-failed", "\(FailureMessages.sentence(for: error)); retrying in \(formatDelay(delay))",
                       ["attempt": JSONValue(failures), "delayMs": JSONValue(Int(delay * 1000))])
                try pause(delay)
                continue
            }
            if everConnected {
                report("reconnected", "reconnected to \(options.url)", ["attempts": JSONValue(failures + 1)])
            }
            failures = 0
            restartDelay = nil
            let lost = try follow(session, isReconnect: everConnected)
            everConnected = true
            guard reconnects else { throw CommandFailure(lost) }
            let delay = restartDelay ?? backoff.delay(attempt: 1)
            restartDelay = nil
            let reason = FailureMessages.sentence(for: lost)
            report("disconnected", "\(reason); reconnecting in \(formatDelay(delay))",
                   ["reason": .string(reason), "delayMs": JSONValue(Int(delay * 1000))])
            try pause(delay)
        }
    }

    /// Prints events from one connection until it is lost; returns why.
    private mutating func follow(_ session: GatewaySession, isReconnect: Bool) throws -> GatewayError {
        defer { session.close() }
        let hello = session.hello
        let silenceLimit = 2 * Double(hello.tickIntervalMs) / 1000
        var watchdog = Deadline.after(seconds: silenceLimit)
        var nextPing = Deadline.after(seconds: Self.pingInterval)
        var outer = SequenceTracker()
        var runs: [String: SequenceTracker] = [:]
        var resyncID: String? = nil
        if isReconnect && resync {
            let params: JSONValue = [ChatField.sessionKey: .string(filter.session ?? "main")]
            do { resyncID = try session.send(method: GatewayMethod.chatHistory, params: params, deadline: context.deadline) } catch { return error }
        }
        let loop = context.loop(session)
        while true {
            let event: LoopEvent
            do { event = try loop.next(until: min(watchdog, nextPing, context.deadline)) }
            catch let error as GatewayError { return error }
            catch is OutputClosed { throw WatchFinished() }
            switch event {
            case .signal: try finish()
            case .input: continue
            case .timeout:
                if context.deadline.hasPassed { throw context.timeoutFailure("watching") }
                if watchdog.hasPassed {
                    session.close(code: 4000, reason: "tick timeout")
                    return .connectionLost("no frame from the gateway for \(formatDelay(silenceLimit)) (2 × tickIntervalMs)", closeCode: 4000)
                }
                if nextPing.hasPassed {
                    do { try session.ping(deadline: .after(seconds: 5)) } catch { return error }
                    nextPing = .after(seconds: Self.pingInterval)
                }
            case .frame(let frame):
                watchdog = .after(seconds: silenceLimit)
                if let id = frame.responseID {
                    if id == resyncID { context.printFrame(frame); resyncID = nil }
                    else if context.raw { context.printFrame(frame) }
                    continue
                }
                guard case .event(let name, let seq) = frame.kind else { continue }
                // v3 numbers broadcasts globally, so skips there are not loss of our data.
                if let seq, hello.protocolVersion >= 4, let expected = outer.record(seq) {
                    reportGap(expected: expected, received: seq, runID: nil)
                }
                let header = frame.header
                if GatewayEventName.isRunEvent(name), let runID = header.runId, let runSeq = header.runSeq, runSeq > 0 {
                    if runs.count >= Self.maxTrackedRuns && runs[runID] == nil { runs.removeAll() }
                    if let expected = runs[runID, default: SequenceTracker()].record(runSeq) {
                        reportGap(expected: expected, received: runSeq, runID: runID)
                    }
                }
                let ended = name == GatewayEventName.chat && header.state.flatMap(ChatState.init(rawValue:))?.endsRun == true
                if ended, let runID = header.runId { runs[runID] = nil }
                if name == GatewayEventName.shutdown {
                    restartDelay = frame.payload?["restartExpectedMs"]?.doubleValue.map { max(0, $0) / 1000 }
                }
                guard filter.accepts(name, header: header, hello: hello) else { continue }
                emit(frame, name: name)
                printed += 1
                if let count, printed >= count { try finish() }
                if untilFinal && ended { try finish() }
            }
        }
    }

    private func emit(_ frame: GatewayFrame, name: String) {
        switch context.format {
        case .ndjson: context.printFrame(frame)
        case .text:
            guard name == GatewayEventName.chat, frame.header.state == ChatState.final.rawValue else { return }
            let session = frame.header.sessionKey ?? "?"
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

    /// A note on stderr and, with `--client-events`, a `{"type":"client",…}` line on stdout.
    private func report(_ event: String, _ message: String, _ fields: JSONObject) {
        context.console.note(message)
        guard clientEvents else { return }
        var line: JSONObject = ["type": "client", "event": .string(event), "ts": JSONValue(context.clock.milliseconds())]
        line.members.append(contentsOf: fields.members)
        var bytes = [UInt8]()
        JSONValue.object(line).write(to: &bytes)
        context.console.out.writeLine(bytes)
    }

    private func formatDelay(_ seconds: Double) -> String {
        seconds >= 10 ? "\(Int(seconds.rounded())) s" : "\(Double(Int(seconds * 10)) / 10) s"
    }
}
