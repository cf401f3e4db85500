@_spi(Engine) import ClawCrypto

/// How the scripted agent answers a `chat.send`.
enum ReplyMode: Sendable, Equatable {
    /// Streams the user's message back.
    case echo
    /// Streams N words of lorem ipsum.
    case lorem(Int)
    /// Streams one delta, then ends the run with `state:"error"`.
    case error
    /// Streams slowly (a second or more per delta) so tests can abort mid-run.
    case slow
    /// Sends N provider-retry `status` events (v4), then echoes like `echo`.
    case retry(Int)
}

/// A misbehaviour the simulator can be told to show, for client robustness tests.
enum Fault: Sendable, Equatable {
    /// Drops the TCP connection (no close frame) after N outgoing frames.
    case dropAfter(Int)
    /// Writes bytes that are not a WebSocket frame right after `hello-ok`.
    case garbage
    /// Sends a text frame that is not JSON right after `hello-ok`.
    case badJSON
    /// Never sends `tick` (the client's watchdog must notice).
    case stopTicks
    /// Sends one message larger than `policy.maxPayload` right after `hello-ok`.
    case oversize
    /// Splits every outgoing message into continuation frames (with a ping between them).
    case fragment
    /// Pings the client after `hello-ok` and on every tick.
    case ping
    /// Sends every message as a binary frame instead of text.
    case binary
    /// Skips one outer `seq` number after every N events (a gap the client must notice).
    case seqGap(Int)
    /// Answers the first N connects `UNAVAILABLE "gateway starting; retry shortly"` and closes 1013.
    case starting(Int)
    /// Refuses the first N requests after a connect (not `health`) `UNAVAILABLE` as while draining for a restart.
    case restarting(Int)
    /// Closes the first N connections with 1013 "gateway suspended" right after the upgrade, before any frame.
    case close1013(Int)
}

/// Everything the command line configures; parsed once at start-up.
struct SimulatorOptions: Sendable, Equatable {
    var host = "127.0.0.1"
    var port = 18789
    var protocolVersion = 4
    var token: String? = nil
    var password: String? = nil
    var tickMs = 30_000
    var tlsCertPath: String? = nil
    var tlsKeyPath: String? = nil
    /// `--edge-auth NAME=VALUE`: like an identity-aware proxy, answer an upgrade without this header 302.
    var edgeAuth: [(name: String, value: String)] = []
    var logPath: String? = nil
    var requirePairing = false
    var approvedDeviceIds: [String] = []
    var reply: ReplyMode = .echo
    var deltaMs = 5
    /// `--delta-words N`: `lorem:N` streams this many words per delta (a long reply in fewer updates).
    var deltaWords = 1
    var restartMs: Int? = nil
    var faults: [Fault] = []
    var blastCount: Int? = nil
    var blastBytes = 200
    var historyFixture: (count: Int, bytes: Int)? = nil
    var handshakeTimeoutMs: Int? = nil
    /// `policy.maxBufferedBytes`, also the slow-consumer limit of each outbound queue.
    var maxBufferedBytes = GatewayVocabulary.maxBufferedBytes
    /// `--script FILE`: every run replays these steps instead of the `--reply` agent.
    var script: RunScript? = nil
    /// `--write-rate-limit N`: control-plane writes allowed per window, method and client (nil = off).
    var writeRateLimit: Int? = nil
    var writeRateWindowMs = 60_000
    /// `--attachment-max-bytes` / `--attachment-max-image-bytes` (nil = no policy, no size check).
    var attachmentMaxBytes: Int? = nil
    var attachmentMaxImageBytes: Int? = nil
    /// `--suspended`: start suspended (connects and requests refused `UNAVAILABLE` until SIGUSR2).
    var startSuspended = false
    /// `--suspend-reason`: `details.reason` of the refusals while suspended.
    var suspendReason = "gateway-suspending"
    /// `--suspend-ms`: a suspension ends by itself after this long (nil: at SIGUSR2).
    var suspendMs: Int? = nil
    /// `--ping-ms`: ping each connected client after this long without a pong (nil: no keepalive).
    var pingMs: Int? = nil
    /// `--pong-timeout-ms`: drop a client whose pong does not come this long after the ping was written.
    var pongTimeoutMs = 25_000
    /// `--operator-access-file`: operators are granted access only while this file exists.
    var operatorAccessFile: String? = nil
    /// `--pairing-wait-any-client`: honour `device-pairing-wait` for every client, not only the Control UI.
    var pairingWaitAnyClient = false
    /// `--pairing-ttl-ms`: a pending pairing request expires after this long (nil: never).
    var pairingTTLMs: Int? = nil
    /// `--max-unauthenticated`: unauthenticated sockets allowed per client address (the official 128).
    var maxUnauthenticated = 128
    /// `--log-lines N`: the file log `logs.tail` reads starts with N synthetic lines.
    var logLines = 0
    /// `--log-rotate-bytes N`: the file log rotates (emptied, renamed) rather than grow past N bytes.
    var logRotateBytes: Int? = nil
    /// `--log-rotate-after-polls N`: the file log rotates after every Nth `logs.tail`.
    var logRotateAfterPolls: Int? = nil
    /// `--log-append-per-poll N`: N short lines appended after each `logs.tail` answer (a busy log to follow).
    var logAppendPerPoll = 0
    /// `--ack-delay-ms N`: chat.send's answer (and its run) comes N ms after the request.
    var ackDelayMs = 0
    /// `--auto-approve-ms MS`: every pairing request is approved MS after it is made.
    var autoApproveMs: Int? = nil
    /// `--log-raw-line TEXT`: lines that are not JSON, written to the file log at start.
    var logRawLines: [String] = []
    /// `--cron-job SPEC`: the cron jobs; nil keeps the default set (`--cron-jobs N` adds generic ones).
    var cronJobs: [CronJobSpec]? = nil
    var cronJobCount = 0
    /// `--sessions N[:AGENT]`: sessions created empty at start, for `sessions.list` paging.
    var sessionFixtures: [SessionFixture] = []

    static func == (a: SimulatorOptions, b: SimulatorOptions) -> Bool {
        a.host == b.host && a.port == b.port && a.protocolVersion == b.protocolVersion && a.token == b.token
            && a.password == b.password && a.tickMs == b.tickMs && a.tlsCertPath == b.tlsCertPath
            && a.tlsKeyPath == b.tlsKeyPath && a.edgeAuth.map { "\($0.name)=\($0.value)" } == b.edgeAuth.map { "\($0.name)=\($0.value)" }
            && a.logPath == b.logPath && a.requirePairing == b.requirePairing
            && a.approvedDeviceIds == b.approvedDeviceIds && a.reply == b.reply && a.deltaMs == b.deltaMs && a.deltaWords == b.deltaWords
            && a.restartMs == b.restartMs && a.faults == b.faults && a.blastCount == b.blastCount
            && a.blastBytes == b.blastBytes && a.historyFixture?.count == b.historyFixture?.count
            && a.historyFixture?.bytes == b.historyFixture?.bytes && a.handshakeTimeoutMs == b.handshakeTimeoutMs
            && a.maxBufferedBytes == b.maxBufferedBytes && a.script == b.script
            && a.writeRateLimit == b.writeRateLimit && a.writeRateWindowMs == b.writeRateWindowMs
            && a.attachmentMaxBytes == b.attachmentMaxBytes && a.attachmentMaxImageBytes == b.attachmentMaxImageBytes
            && a.startSuspended == b.startSuspended && a.suspendReason == b.suspendReason && a.suspendMs == b.suspendMs
            && a.pingMs == b.pingMs && a.pongTimeoutMs == b.pongTimeoutMs && a.operatorAccessFile == b.operatorAccessFile
            && a.pairingWaitAnyClient == b.pairingWaitAnyClient && a.pairingTTLMs == b.pairingTTLMs
            && a.maxUnauthenticated == b.maxUnauthenticated
            && a.logLines == b.logLines && a.logRotateBytes == b.logRotateBytes
            && a.logRotateAfterPolls == b.logRotateAfterPolls && a.logRawLines == b.logRawLines
            && a.logAppendPerPoll == b.logAppendPerPoll && a.ackDelayMs == b.ackDelayMs && a.autoApproveMs == b.autoApproveMs
            && a.cronJobs == b.cronJobs && a.cronJobCount == b.cronJobCount && a.sessionFixtures == b.sessionFixtures
    }

    /// The handshake timer of the real server: 15 s in v4, 10 s in v3, unless overridden.
    var effectiveHandshakeTimeoutMs: Int { handshakeTimeoutMs ?? (protocolVersion == 3 ? 10_000 : 15_000) }

    /// `token`, `password` or `none`, as `snapshot.authMode` reports it.
    var authMode: String { token != nil ? "token" : password != nil ? "password" : "none" }

    func has(_ fault: Fault) -> Bool { faults.contains(fault) }

    /// `hello-ok.policy.attachments` and the limits `chat.send` enforces, once either flag is given.
    var attachmentPolicy: AttachmentPolicy? {
        guard attachmentMaxBytes != nil || attachmentMaxImageBytes != nil else { return nil }
        let maxBytes = attachmentMaxBytes ?? AttachmentPolicy.defaultMaxBytes
        return AttachmentPolicy(maxBytes: maxBytes, maxImageBytes: attachmentMaxImageBytes ?? maxBytes)
    }

    var dropAfterFrames: Int? {
        for case .dropAfter(let n) in faults { return n }
        return nil
    }

    var seqGapEvery: Int? {
        for case .seqGap(let n) in faults { return n }
        return nil
    }

    var startingConnects: Int {
        for case .starting(let n) in faults { return n }
        return 0
    }

    var restartingRequests: Int {
        for case .restarting(let n) in faults { return n }
        return 0
    }

    var closed1013Connects: Int {
        for case .close1013(let n) in faults { return n }
        return 0
    }
}

/// A bad command line: one line for people; the process exits 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension SimulatorOptions {
    static let helpText = header + "\n" + SimulatorFlag.all.flatMap(\.helpLines).joined(separator: "\n") + "\n" + details

    private static let header = """
        usage: openclaw-gateway-sim [options]

        A faithful OpenClaw Gateway simulator for tests, demos and benchmarks.
        The first stdout line is `listening on ws://HOST:PORT` (wss with TLS).

        """

    /// What `--help` says after the options: the script format and the gateway behaviours simulated.
    private static let details = """

        Script files (--script): a JSON array of steps, played in order for each chat.send after
        its `started` ack, to every connection that may read chat events. One kind per step:
          {"state":"delta","deltaText":"Hel","message":"Hel"}   a `chat` event: payload is runId,
              sessionKey, seq, state, then the step's other members in file order, verbatim
              (deltaText, replace, phase, retry, stopReason, errorMessage, errorKind, errorDetail,
              usage, anything).
              A string `message` becomes {role:"assistant",content:[{type:"text",text}],timestamp}.
              runId and sessionKey come from the chat.send unless the step gives them.
          {"agent":"tool","data":{"phase":"start","name":"read","toolCallId":"c1"}}   an `agent`
              event {runId, seq, stream, ts, data, sessionKey} (sent to every reader, no caps check)
          {"frame":{"type":"event","event":"future.thing","payload":{}}}   one message with this
              JSON as written (members in file order, no outer seq added)
          {"text":"not json {"}   one text message with exactly these characters
        chat and agent steps take an optional "seq" (the per-run seq; default one more than the
        highest so far in the run, so a lower or repeated seq makes reordering and duplicates);
        they get the outer seq like any broadcast. Any step may add "delayMs":N (pause first).
        The strings "$runId" and "$sessionKey" anywhere in a step become the run's own.
        The run ends after the last step (a chat.abort or stop command ends it early); a string
        or text message seen in the script is stored as the assistant reply in chat.history.

        chat.history pages (v4): offset O (records back from the newest end) and limit L return
        records [max(0, n-O-L), n-O) oldest first, with hasMore, totalMessages and, when hasMore,
        nextOffset; maxBytes (>= 1024) drops the oldest whole messages of a page (never the newest).

        chat.send queueMode interrupt aborts the session's active runs first (stopReason "stop",
        like a stop command) and the ack adds interruptedActiveRun:true when it did.

        chat.send attachments [{type?, mimeType, fileName?, content (base64)}]: with an attachment
        limit set, each one's decoded size is checked: INVALID_REQUEST "Error: attachment NAME:
        exceeds size limit (BYTES > MAX bytes)" (NAME is fileName, else type, else attachment-N).

        Subscriptions (v4, read scope): sessions.subscribe {} sends sessions.changed (phase start,
        end or error, status running, done, failed or killed) whenever a run starts or ends;
        sessions.messages.subscribe {key} sends session.message {sessionKey, message, messageId,
        messageSeq} for every message appended to that session; sessions.unsubscribe and
        sessions.messages.unsubscribe {key} stop them. Both are targeted: no outer seq.

        Stop commands: a chat.send whose message is /stop (or stop, abort, esc, exit, interrupt,
        halt, "please stop"…; not "cancel") starts no run; it aborts the session's active runs
        (same raw sessionKey) and answers {ok:true, aborted, runIds}.

        Suspension and restart: SIGUSR1 suspends the gateway (see --suspended), SIGUSR2 resumes it.
        Connected clients stay connected; their requests are refused until the gateway resumes.

        Pairing wait (v4): a device that must be paired and lists device-pairing-wait in caps gets
        NOT_PAIRED with details.waitForResolution true and its socket stays open; a request on it
        closes it 1008. device.pair.approve / device.pair.reject {requestId} (operator.pairing)
        decide: the waiters get device.pair.resolved {requestId, deviceId, decision, ts}, then close
        1000; after approved the device connects as paired. A new request of the same device for
        other scopes supersedes the old one (decision superseded); --pairing-ttl-ms expires them.

        File log (logs.tail): kept in memory, named /tmp/openclaw-sim/openclaw-YYYY-MM-DD.log; the
        --log-lines synthetic lines, the --log-raw-lines, then one tslog JSON line per connection
        and per request answered. Cursors are byte offsets, read as the official reader does.

        Cron: jobs run only by cron.run (no timer); a run is enqueued at once and finishes after
        its job's seconds, then shows in cron.runs and as a cron event (started, finished).

        agent: the second res is {runId, status ok|error|timeout, summary completed|failed|aborted,
        stopReason?, result:{payloads, meta}}; an aborted or timed-out run (param timeout, seconds)
        reports timeout/aborted.

        Slow consumers: each connection has an outbound queue drained by its own writer; when the
        unsent bytes exceed maxBufferedBytes the queue is dropped and the socket closed with
        1008 "slow consumer". SIGTERM/SIGINT send `shutdown`, close 1012, exit 0.
        """

    /// Parses the arguments (without the program name); `nil` means `--help` was asked for. Without
    /// `--port` the gateway listens on `defaultPort`: the official 18789 for the executable, any free
    /// port (0) in-process.
    static func parse(_ arguments: [String], defaultPort: Int = 18789) throws(UsageError) -> SimulatorOptions? {
        var options = SimulatorOptions()
        options.port = defaultPort
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            var name = argument
            var inline: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let flag = SimulatorFlag.byName[name] else { throw UsageError("unknown option '\(argument)' (see --help)") }
            guard let apply = flag.apply else { return nil }
            var value = ""
            if flag.placeholder != nil {
                if let inline {
                    value = inline
                } else {
                    index += 1
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                }
            }
            try apply(&options, name, value)
            index += 1
        }
        if (options.tlsCertPath == nil) != (options.tlsKeyPath == nil) {
            throw UsageError("--tls-cert and --tls-key go together")
        }
        if options.token != nil && options.password != nil {
            throw UsageError("give either --token or --password, not both (the gateway has one auth mode)")
        }
        return options
    }

    static func parseReply(_ text: String) throws(UsageError) -> ReplyMode {
        switch text {
        case "echo": return .echo
        case "error": return .error
        case "slow": return .slow
        default:
            if text.hasPrefix("lorem:"), let n = Int(text.dropFirst(6)), n >= 1, n <= 10_000_000 { return .lorem(n) }
            // The gateway caps retry.maxAttempts at 10.
            if text.hasPrefix("retry:"), let n = Int(text.dropFirst(6)), n >= 1, n <= 9 { return .retry(n) }
            throw UsageError("--reply: expected echo, lorem:N, error, slow or retry:N (1-9), got '\(text)'")
        }
    }

    static func parseFault(_ text: String) throws(UsageError) -> Fault {
        switch text {
        case "garbage": return .garbage
        case "bad-json": return .badJSON
        case "stop-ticks": return .stopTicks
        case "oversize": return .oversize
        case "fragment": return .fragment
        case "ping": return .ping
        case "binary": return .binary
        default:
            if text.hasPrefix("drop-after:"), let n = Int(text.dropFirst(11)), n >= 0 { return .dropAfter(n) }
            if text.hasPrefix("starting:"), let n = Int(text.dropFirst(9)), n >= 0 { return .starting(n) }
            if text.hasPrefix("seq-gap:"), let n = Int(text.dropFirst(8)), n >= 1 { return .seqGap(n) }
            if text.hasPrefix("restarting:"), let n = Int(text.dropFirst(11)), n >= 0 { return .restarting(n) }
            if text.hasPrefix("close-1013:"), let n = Int(text.dropFirst(11)), n >= 0 { return .close1013(n) }
            throw UsageError("--fault: unknown fault '\(text)' (drop-after:N, garbage, bad-json, stop-ticks, oversize, fragment, ping, binary, starting:N, seq-gap:N, restarting:N, close-1013:N)")
        }
    }
}

extension Hex {
    static func isDigit(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
    }
}
