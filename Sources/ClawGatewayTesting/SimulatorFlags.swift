@_spi(Engine) import ClawCrypto

/// One simulator option: its names, the placeholder of its value (none for a switch), its help lines and
/// what it does to the options. The parser and `--help`'s option list both come from `SimulatorFlag.all`,
/// as the client's come from its command table.
struct SimulatorFlag: Sendable {
    typealias Apply = @Sendable (_ options: inout SimulatorOptions, _ name: String, _ value: String) throws(UsageError) -> Void

    let names: [String]
    let placeholder: String?
    let help: [String]
    /// nil for `--help`.
    let apply: Apply?

    init(_ names: [String], _ placeholder: String?, _ help: [String], _ apply: Apply?) {
        self.names = names
        self.placeholder = placeholder
        self.help = help
        self.apply = apply
    }

    /// `--help`'s line(s): the label in a 25-column field (two spaces after a longer one), then the help.
    var helpLines: [String] {
        let label = names.joined(separator: ", ") + (placeholder.map { " " + $0 } ?? "")
        let padded = label.count <= 23 ? label + String(repeating: " ", count: 25 - label.count) : label + "  "
        return ["  " + padded + help[0]] + help.dropFirst().map { String(repeating: " ", count: 27) + $0 }
    }

    static let byName: [String: SimulatorFlag] = {
        var table: [String: SimulatorFlag] = [:]
        for flag in all { for name in flag.names { table[name] = flag } }
        return table
    }()

    static let all: [SimulatorFlag] = [
        SimulatorFlag(["--port"], "N", ["port to listen on (0 = any free port; default 18789)"]) { o, name, v throws(UsageError) in o.port = try integer(name, v, max: 65535) },
        SimulatorFlag(["--host"], "HOST", ["address to bind (default 127.0.0.1)"]) { o, _, v throws(UsageError) in o.host = v },
        SimulatorFlag(["--protocol"], "3|4", ["protocol generation to speak (default 4)"]) { o, _, v throws(UsageError) in
            guard v == "3" || v == "4" else { throw UsageError("--protocol: expected 3 or 4, got '\(v)'") }
            o.protocolVersion = Int(v) ?? 4
        },
        SimulatorFlag(["--token"], "TOKEN", ["require this shared gateway token"]) { o, _, v throws(UsageError) in o.token = v },
        SimulatorFlag(["--password"], "PASSWORD", ["require this gateway password (instead of a token)"]) { o, _, v throws(UsageError) in o.password = v },
        SimulatorFlag(["--tick-ms"], "MS", ["tick interval, also hello-ok.policy.tickIntervalMs (default 30000)"]) { o, name, v throws(UsageError) in o.tickMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--tls-cert"], "PATH", ["PEM certificate: serve wss:// (needs --tls-key)"]) { o, _, v throws(UsageError) in o.tlsCertPath = v },
        SimulatorFlag(["--edge-auth"], "NAME=VALUE", ["act as an identity-aware proxy: answer an upgrade that lacks this", "header (repeatable) with 302 to a login page"]) { o, _, v throws(UsageError) in
            guard let equals = v.firstIndex(of: "="), equals != v.startIndex else {
                throw UsageError("--edge-auth: expected NAME=VALUE, got '\(v)'")
            }
            o.edgeAuth.append((String(v[..<equals]), String(v[v.index(after: equals)...])))
        },
        SimulatorFlag(["--tls-key"], "PATH", ["PEM private key for --tls-cert"]) { o, _, v throws(UsageError) in o.tlsKeyPath = v },
        SimulatorFlag(["--log"], "FILE", ["append every frame in and out as NDJSON {\"dir\",\"conn\",\"frame\"}"]) { o, _, v throws(UsageError) in o.logPath = v },
        SimulatorFlag(["--require-pairing"], nil, ["behave like a remote gateway: unknown devices need approval"]) { o, _, _ throws(UsageError) in o.requirePairing = true },
        SimulatorFlag(["--approve"], "DEVICE_ID", ["pre-approve a device id (repeatable)"]) { o, _, v throws(UsageError) in
            guard v.count == 64, v.utf8.allSatisfy({ Hex.isDigit($0) }) else {
                throw UsageError("--approve: expected a 64-hex-digit device id, got '\(v)'")
            }
            o.approvedDeviceIds.append(v.lowercased())
        },
        SimulatorFlag(["--reply"], "MODE", ["echo | lorem:N | error | slow | retry:N (default echo); error ends", "the run in state error with errorKind and errorDetail (v4);", "retry:N (1-9) first sends N status events (phase starting_model,", "retry {attempt, maxAttempts N+1, reason rate_limit}; v4), then echoes"]) { o, _, v throws(UsageError) in o.reply = try SimulatorOptions.parseReply(v) },
        SimulatorFlag(["--delta-ms"], "MS", ["pause between streamed deltas (default 5)"]) { o, name, v throws(UsageError) in o.deltaMs = try integer(name, v) },
        SimulatorFlag(["--delta-words"], "N", ["lorem:N: words per streamed delta (default 1)"]) { o, name, v throws(UsageError) in o.deltaWords = try integer(name, v, min: 1) },
        SimulatorFlag(["--restart-ms"], "MS", ["shutdown.restartExpectedMs on SIGTERM/SIGINT (default null)"]) { o, name, v throws(UsageError) in o.restartMs = try integer(name, v) },
        SimulatorFlag(["--suspended"], nil, ["start suspended: connects are answered UNAVAILABLE (retryable,", "retryAfterMs 1000, details {reason, phase}) and closed 1013,", "requests but health are refused UNAVAILABLE, until SIGUSR2"]) { o, _, _ throws(UsageError) in o.startSuspended = true },
        SimulatorFlag(["--suspend-reason"], "REASON", ["details.reason while suspended: gateway-suspending (default),", "gateway-restarting or startup-sidecars"]) { o, _, v throws(UsageError) in
            guard ["gateway-suspending", "gateway-restarting", "startup-sidecars"].contains(v) else {
                throw UsageError("--suspend-reason: expected gateway-suspending, gateway-restarting or startup-sidecars, got '\(v)'")
            }
            o.suspendReason = v
        },
        SimulatorFlag(["--suspend-ms"], "MS", ["a suspension (--suspended, SIGUSR1) ends by itself after MS"]) { o, name, v throws(UsageError) in o.suspendMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--ping-ms"], "MS", ["keepalive: ping each client MS after its last pong (or hello-ok);", "the log gets {\"dir\":\"ping\",\"conn\":N} when a ping is written and", "{\"dir\":\"pong\",\"conn\":N} when a pong arrives"]) { o, name, v throws(UsageError) in o.pingMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--max-unauthenticated"], "N", ["answer an upgrade past N unauthenticated sockets from one client address", "with HTTP 503 \"Too many unauthenticated sockets\" (default 128, as the", "official gateway)"]) { o, name, v throws(UsageError) in o.maxUnauthenticated = try integer(name, v, min: 1) },
        SimulatorFlag(["--pong-timeout-ms"], "MS", ["drop a client (no close frame) whose pong has not come MS after", "its ping was written, logged {\"dir\":\"dropped\",\"conn\":N,...}", "(default 25000)"]) { o, name, v throws(UsageError) in o.pongTimeoutMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--operator-access-file"], "PATH", ["an access policy: operators are let in only while PATH exists;", "otherwise FORBIDDEN details.code OPERATOR_ACCESS_DENIED, close 1008"]) { o, _, v throws(UsageError) in o.operatorAccessFile = v },
        SimulatorFlag(["--pairing-wait-any-client"], nil, ["honour caps device-pairing-wait for every client id (default:", "the Control UI's only, openclaw-control-ui, as the gateway does)"]) { o, _, _ throws(UsageError) in o.pairingWaitAnyClient = true },
        SimulatorFlag(["--auto-approve-ms"], "MS", ["approve every pairing request MS after it is made, as an", "administrator would (with --require-pairing)"]) { o, name, v throws(UsageError) in o.autoApproveMs = try integer(name, v, min: 0) },
        SimulatorFlag(["--pairing-ttl-ms"], "MS", ["pending pairing requests expire after MS (decision expired)"]) { o, name, v throws(UsageError) in o.pairingTTLMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--log-lines"], "N", ["the file log that logs.tail reads starts with N synthetic lines of one", "width, made on demand (a million cost no memory)"]) { o, name, v throws(UsageError) in o.logLines = try integer(name, v, max: 100_000_000) },
        SimulatorFlag(["--log-raw-line"], "TEXT", ["write TEXT (not JSON) to the file log at start (repeatable)"]) { o, _, v throws(UsageError) in
            guard !v.contains("\n") else { throw UsageError("--log-raw-line: one line, without a newline") }
            o.logRawLines.append(v)
        },
        SimulatorFlag(["--log-rotate-bytes"], "N", ["rotate the file log (emptied, next day's name) rather than let a", "line take it past N bytes; followers then get reset"]) { o, name, v throws(UsageError) in o.logRotateBytes = try integer(name, v, min: 1) },
        SimulatorFlag(["--log-rotate-after-polls"], "N", ["rotate the file log after every Nth logs.tail answer"]) { o, name, v throws(UsageError) in o.logRotateAfterPolls = try integer(name, v, min: 1) },
        SimulatorFlag(["--ack-delay-ms"], "MS", ["answer chat.send MS after the request (the run starts then): a", "client can be cancelled while it waits for the answer"]) { o, name, v throws(UsageError) in o.ackDelayMs = try integer(name, v, min: 0) },
        SimulatorFlag(["--log-append-per-poll"], "N", ["append N short lines (`follow line 0000001`, numbered on) after", "each logs.tail answer: a busy log for a follower"]) { o, name, v throws(UsageError) in o.logAppendPerPoll = try integer(name, v, min: 1) },
        SimulatorFlag(["--cron-job"], "SPEC", ["ID[,ok|error][,SECONDS][,disabled][,due][,agent:ID]: a cron job whose", "runs end ok or error SECONDS after they start (default ok, 1); due:", "its next run is past; agent: its owner (default main) (repeatable;", "replaces the default jobs daily-digest, flaky-export and the", "disabled weekly-cleanup)"]) { o, _, v throws(UsageError) in
            o.cronJobs = (o.cronJobs ?? []) + [try CronJobSpec.parse(v)]
        },
        SimulatorFlag(["--cron-jobs"], "N", ["add N generic cron jobs job-0001… (ok after 1 s), replacing the defaults"]) { o, name, v throws(UsageError) in
            o.cronJobCount = try integer(name, v, max: 100_000)
            if o.cronJobs == nil { o.cronJobs = [] }
        },
        SimulatorFlag(["--sessions"], "N[:AGENT]", ["create N empty sessions agent:AGENT:s0001… (AGENT main), an hour", "apart, s0001 newest (repeatable)"]) { o, _, v throws(UsageError) in o.sessionFixtures.append(try SessionFixture.parse(v)) },
        SimulatorFlag(["--handshake-timeout-ms"], "MS", ["close sockets that do not connect in time (default 15000, v3 10000)"]) { o, name, v throws(UsageError) in o.handshakeTimeoutMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--max-buffered-bytes"], "B", ["policy.maxBufferedBytes and slow-consumer limit (default 52428800)"]) { o, name, v throws(UsageError) in o.maxBufferedBytes = try integer(name, v, min: 1024) },
        SimulatorFlag(["--fault"], "KIND", ["drop-after:N | garbage | bad-json | stop-ticks | oversize |", "fragment | ping | binary | starting:N | seq-gap:N |", "restarting:N (the first N requests but health refused", "UNAVAILABLE gateway-restarting) | close-1013:N (the first N", "connections closed 1013 right after the upgrade) (repeatable)"]) { o, _, v throws(UsageError) in o.faults.append(try SimulatorOptions.parseFault(v)) },
        SimulatorFlag(["--blast"], "N", ["after hello-ok, send N pre-encoded chat delta events at full speed"]) { o, name, v throws(UsageError) in o.blastCount = try integer(name, v) },
        SimulatorFlag(["--blast-bytes"], "B", ["approximate size of each blast event (default 200)"]) { o, name, v throws(UsageError) in o.blastBytes = try integer(name, v, min: 1, max: 16 * 1024 * 1024) },
        SimulatorFlag(["--history-fixture"], "N:BYTES", ["preload N messages of BYTES characters into session main"]) { o, _, v throws(UsageError) in
            let parts = v.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let n = Int(parts[0]), let bytes = Int(parts[1]), n >= 0, bytes >= 1, bytes <= 1_000_000
            else { throw UsageError("--history-fixture: expected N:BYTES, got '\(v)'") }
            o.historyFixture = (n, bytes)
        },
        SimulatorFlag(["--script"], "FILE", ["replay FILE as every chat.send (and agent) run instead of --reply"]) { o, _, v throws(UsageError) in o.script = try RunScript.load(path: v) },
        SimulatorFlag(["--write-rate-limit"], "N", ["at most N control-plane writes (chat.send, chat.abort, chat.inject,", "agent) per window, method and client; more are refused UNAVAILABLE", "retryable with retryAfterMs; replays of a known idempotencyKey", "neither count nor are refused (default off; the gateway's is 30)"]) { o, name, v throws(UsageError) in o.writeRateLimit = try integer(name, v, min: 1) },
        SimulatorFlag(["--write-rate-window-ms"], "MS", ["the window of --write-rate-limit (default 60000)"]) { o, name, v throws(UsageError) in o.writeRateWindowMs = try integer(name, v, min: 1) },
        SimulatorFlag(["--attachment-max-bytes"], "B", ["decoded size limit of each chat.send attachment; announced in", "hello-ok.policy.attachments (v4) (default off: no check)"]) { o, name, v throws(UsageError) in o.attachmentMaxBytes = try integer(name, v, min: 1) },
        SimulatorFlag(["--attachment-max-image-bytes"], "B", ["the same for image/* attachments (default: the one above,", "which defaults to 5000000 when only this one is given)"]) { o, name, v throws(UsageError) in o.attachmentMaxImageBytes = try integer(name, v, min: 1) },
        SimulatorFlag(["-h", "--help"], nil, ["show this help"], nil),
    ]
}

/// `text` as a whole number in `min...max`, or a usage error naming `name`.
private func integer(_ name: String, _ text: String, min: Int = 0, max: Int = Int.max) throws(UsageError) -> Int {
    guard let n = Int(text), n >= min, n <= max else {
        throw UsageError("\(name): expected an integer \(min)...\(max == Int.max ? "" : String(max)), got '\(text)'")
    }
    return n
}
