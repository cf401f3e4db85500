@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport

/// `openclaw gateway call METHOD`: the official CLI's command, answered natively with its flags,
/// its output byte for byte and its exit statuses (0, or 1 for every failure), so scripts written
/// for it run unchanged, and faster. docs/cli.md lists the texts.
enum GatewayCallCommand {
    static let parent = "gateway"
    static let subcommand = "call"
    static let defaultTimeoutMs = 10_000

    static func run(_ context: CommandContext) throws {
        let words = context.positionals
        guard words.first == subcommand else {
            // Reached only when there is no official CLI to hand the other subcommands to.
            throw CommandFailure(.usage, "openclaw gateway: only 'gateway call METHOD' is answered here")
        }
        guard words.count >= 2, !words[1].isEmpty else { throw report(context, "error: missing required argument 'method'") }
        guard words.count == 2 else { throw report(context, "error: too many arguments for 'call'. Expected 1 argument but got \(words.count - 1).") }
        let method = words[1]
        let options = context.options.gatewayCall
        let timeoutMs: Int
        if let text = options.timeout {
            guard let value = Int(TextTrim.trimmed(text)), value > 0 else {
                throw report(context, "Gateway call failed: Error: Invalid --timeout. Use a positive millisecond value, e.g. --timeout 30000. Received: \"\(text)\".")
            }
            timeoutMs = value
        } else if let handshake = SessionOptions.handshakeTimeoutMilliseconds(context.environment), handshake > defaultTimeoutMs {
            // As the official call.ts: a longer handshake limit is also the default call limit.
            timeoutMs = handshake
        } else {
            timeoutMs = defaultTimeoutMs
        }
        let params: JSONValue
        do { params = try JSONValue.parse(Array((options.params ?? "{}").utf8)) } catch {
            throw report(context, "Gateway call failed: Error: --params must be valid JSON.")
        }

        let deadline = Deadline.after(seconds: Double(timeoutMs) / 1000)
        let resolved = try ConnectionSetup.resolve(for: context)
        let target = GatewayTarget(resolved)
        var dispatched = false
        let response: GatewayFrame
        do {
            var sessionOptions = try ConnectionSetup.sessionOptions(for: context, resolved: resolved)
            sessionOptions.connectTimeout = min(sessionOptions.connectTimeout, Double(timeoutMs) / 1000)
            // A gateway restarting or starting is waited out within the call's limit, without a note:
            // stderr is the official CLI's.
            let session = try context.connect(sessionOptions, deadline: deadline, quietly: true)
            defer { session.close() }
            let id = try session.send(method: method, params: params, deadline: deadline)
            dispatched = true
            response = try awaitResponse(id: id, method: method, on: session, context: context,
                                         expectFinal: options.expectFinal, deadline: deadline)
        } catch let error as GatewayError {
            throw transportFailure(context, options.json, target, TransportFailure(error, timeoutMs: timeoutMs, dispatched: dispatched))
        } catch let failure as CommandFailure where failure.status == .timeout || failure.status == .connection {
            let kind: TransportFailure = failure.status == .timeout
                ? .timeout(timeoutMs: timeoutMs, dispatched: dispatched) : .closed(code: 1006, reason: "no close reason", dispatched: dispatched)
            throw transportFailure(context, options.json, target, kind)
        } catch let failure as CommandFailure where failure.status == .interrupted || failure.status == .terminated {
            throw failure
        } catch let failure as CommandFailure {
            throw report(context, "Gateway call failed: Error: \(failure.message)")
        }
        if let error = response.error {
            let message = TextTrim.nonEmpty(error.message) ?? "gateway request failed"
            if options.json {
                var body: JSONObject = ["type": "gateway_request_error", "code": .string(error.code), "message": .string(message)]
                if let details = error.details { body["details"] = details }
                body["retryable"] = .bool(error.retryable ?? false)
                if let retryAfterMs = error.retryAfterMs { body["retryAfterMs"] = JSONValue(retryAfterMs) }
                throw printJSON(context, ["ok": false, "error": .object(body)])
            }
            throw report(context, "Gateway call failed: GatewayClientRequestError: \(message)")
        }
        let result = Redaction.redact(response.payload ?? .null)
        if !options.json { context.console.out.write("Gateway call: \(method)\n") }
        context.console.out.write(result.prettyText + "\n")
    }

    /// A line (or lines) on stderr exactly as given, then exit 1.
    private static func report(_ context: CommandContext, _ text: String) -> ReportedFailure {
        // ssh's words or a gateway's message may carry control characters: none reach the terminal.
        context.console.err.write(Console.sanitized(text, keepingLineBreaks: true) + "\n")
        context.console.err.flush()
        return ReportedFailure(status: .gatewayError)
    }

    /// A JSON error envelope on stdout, then exit 1.
    private static func printJSON(_ context: CommandContext, _ value: JSONValue) -> ReportedFailure {
        context.console.out.write(value.prettyText + "\n")
        return ReportedFailure(status: .gatewayError)
    }

    private static func transportFailure(_ context: CommandContext, _ json: Bool, _ target: GatewayTarget,
                                         _ failure: TransportFailure) -> ReportedFailure {
        if json {
            var gateway: JSONObject = ["url": .string(target.url), "urlSource": .string(target.source)]
            if let bind = target.bindLine { gateway["bindDetail"] = .string(bind) }
            return printJSON(context, ["ok": false, "error": .object(failure.jsonError(target)), "gateway": .object(gateway)])
        }
        return report(context, "Gateway call failed: GatewayTransportError: " + failure.text(target))
    }
}

/// Where the call went, as the official CLI describes it under a transport error.
struct GatewayTarget {
    let url: String
    /// `host:port`, as Node names a socket address in `connect ECONNREFUSED 127.0.0.1:18789`.
    let hostPort: String
    let source: String
    let configPath: String
    /// `Bind: MODE`, only for the configured local gateway.
    let bindLine: String?

    init(_ resolved: ResolvedConnection) {
        // As the official CLI shows it: no trailing `/` for a bare path; a query redacted.
        let text = resolved.url.description
        url = resolved.url.path == "/" && text.hasSuffix("/") ? String(text.dropLast()) : text
        hostPort = "\(resolved.url.host):\(resolved.url.port)"
        switch resolved.urlSource {
        case .option: source = "cli --url"
        case .environment: source = "env OPENCLAW_GATEWAY_URL"
        case .configKey("gateway.remote.url", _): source = "config gateway.remote.url"
        default: source = "local loopback"
        }
        configPath = resolved.configPath
        bindLine = resolved.urlIsOverride || resolved.isRemoteMode ? nil : "Bind: \(resolved.bindMode ?? "loopback")"
    }

    var lines: String {
        "Gateway target: \(url)\nSource: \(source)\nConfig: \(configPath)" + (bindLine.map { "\n" + $0 } ?? "")
    }
}

/// A failure to reach the gateway or to hear back, in the official CLI's kinds.
enum TransportFailure {
    case timeout(timeoutMs: Int, dispatched: Bool)
    case unreachable(code: String?)
    case closed(code: UInt16, reason: String, dispatched: Bool)
    /// Anything else (TLS, authentication, protocol): our own sentence.
    case other(String)

    static let outcomeUnknown = "The request was already sent to the gateway, so the operation may have been applied "
        + "even though no response arrived; its outcome is unknown. Verify the current state (for example, re-run "
        + "the equivalent read-only command) before retrying, especially for write actions."

    init(_ error: GatewayError, timeoutMs: Int, dispatched: Bool) {
        switch error {
        case .timedOut, .handshakeTimedOut, .handshakeStepTimedOut:
            self = .timeout(timeoutMs: timeoutMs, dispatched: dispatched)
        case .connectFailed(_, _, .connect(_, _, let error)):
            self = .unreachable(code: error.connectErrorName)
        case .connectFailed(_, _, .resolve):
            self = .unreachable(code: "ENOTFOUND")
        case .cannotConnect:
            self = .unreachable(code: nil)
        case .connectionLost(let reason, let closeCode):
            self = .closed(code: closeCode ?? 1006, reason: reason.isEmpty ? "no close reason" : reason, dispatched: dispatched)
        default:
            self = .other(FailureMessages.sentence(for: error))
        }
    }

    func text(_ target: GatewayTarget) -> String {
        switch self {
        case .timeout(let timeoutMs, let dispatched):
            return "gateway timeout after \(timeoutMs)ms\n\(target.lines)" + (dispatched ? "\n\n" + Self.outcomeUnknown : "")
        case .unreachable(let code):
            return "Gateway not reachable at \(target.url)\(code.map { " (\($0))" } ?? "").\n"
                + "Start it with `openclaw gateway run` or check `openclaw gateway status`.\n\(target.lines)"
        case .closed(let code, let reason, let dispatched):
            var text = "gateway closed (\(code)\(Self.suffix(code))): \(reason)\n\(target.lines)"
            if code == 1006 {
                let hints = dispatched
                    ? "- Connection dropped without a close frame (check network and gateway load)"
                    : "- Connection dropped without a close frame (retry; check network and gateway load)"
                        + "\n- Gateway not yet ready to accept connections (retry after a moment)"
                        + "\n- TLS mismatch (connecting with ws:// to a wss:// gateway, or vice versa)"
                text += "\n\nPossible causes:\n\(hints)\n- Gateway process stopped or became unreachable (confirm it is still running)"
                    + "\nRun `openclaw doctor` for diagnostics."
            }
            return text + (dispatched ? "\n\n" + Self.outcomeUnknown : "")
        case .other(let sentence):
            return "\(sentence)\n\(target.lines)"
        }
    }

    func jsonError(_ target: GatewayTarget) -> JSONObject {
        switch self {
        case .timeout(let timeoutMs, _):
            return ["type": "gateway_transport_error", "kind": "timeout", "message": .string("gateway timeout after \(timeoutMs)ms"),
                    "timeoutMs": JSONValue(timeoutMs)]
        case .unreachable(let code):
            return ["type": "gateway_transport_error", "kind": "closed",
                    "message": .string("Gateway not reachable at \(target.url)" + (code.map { " (\($0))" } ?? "") + "."),
                    "reason": .string("connect \(code ?? "failed") \(target.hostPort)")]
        case .closed(let code, let reason, _):
            return ["type": "gateway_transport_error", "kind": "closed",
                    "message": .string("gateway closed (\(code)\(Self.suffix(code))): \(reason)"), "code": JSONValue(Int(code)),
                    "reason": .string(reason)]
        case .other(let sentence):
            return ["type": "gateway_transport_error", "kind": "closed", "message": .string(sentence)]
        }
    }

    private static func suffix(_ code: UInt16) -> String {
        code == 1006 ? " abnormal closure (no close frame)" : code == 1000 ? " normal closure" : ""
    }
}
