@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState

/// `openclaw agent`: the official CLI's one agent turn (openclaw/openclaw
/// `src/cli/program/register.agent-turn.ts`, `src/commands/agent-via-gateway.ts`): the `agent`
/// method with `expectFinal`, its flags, its output and its JSON. What it adds: `--json-stream`,
/// `-` for stdin, exit 5 for a timeout, and the turn aborted on the gateway by a signal or our deadline.
enum AgentCommand {
    /// The official `--thinking` levels (2026.9.4 help).
    static let thinkingLevels = ["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max", "ultra"]
    /// The levels as the help lists them (every command builds the table, `version` too).
    static var thinkingLevelList: String { StringJoin.join(thinkingLevels, separator: ", ") }
    static let defaultTimeoutSeconds = 600
    /// The official `--message-file` cap.
    static let messageFileLimit = 4 * 1024 * 1024

    static func run(_ context: CommandContext) throws {
        let options = context.options.agent
        var turn: AgentTurn?
        try OfficialOutput.withEnvelope(json: options.json, context, runId: { turn?.runId }) {
            if let extra = context.positionals.first {
                throw CommandFailure(.usage, "agent takes no arguments, got '\(extra)' (the message goes in --message)")
            }
            let request = try AgentRequest(options, context: context)
            turn = AgentTurn(context: context, request: request)
            try turn!.run()
        }
    }
}

/// The `agent` params from the official flags, checked with the official sentences.
struct AgentRequest {
    let params: JSONObject
    /// The session key sent, when one was (the abort names it if the ack does not).
    let sessionKey: String?
    let agentId: String?
    /// The turn's limit in seconds; 0 = none.
    let timeoutSeconds: Int

    init(_ options: AgentOptions, context: CommandContext) throws {
        if options.message != nil && options.messageFile != nil {
            throw CommandFailure(.usage, "Use either --message or --message-file, not both.")
        }
        for (flag, value) in [("agent", options.agent), ("session-id", options.sessionId), ("session-key", options.sessionKey), ("to", options.to)] {
            if let value, TextTrim.trimmed(value).isEmpty { throw CommandFailure(.usage, "--\(flag) must not be blank") }
        }
        timeoutSeconds = try Self.timeout(options.timeout)
        let message = try Self.message(options, signals: context.signals)
        if TextTrim.trimmed(message).lowercased().hasPrefix("/compact") {
            throw CommandFailure(.usage, "Slash commands cannot be executed via --message from the CLI. Use: openclaw sessions compact <key>")
        }

        let agentId = options.agent.map { AgentSessionKey.normalizeAgentId($0) }
        var sessionKey: String? = nil
        var to = options.to.map(TextTrim.trimmed)
        // An `agent:` value of --to is a session key, as the official CLI reads it.
        if let value = to, value.hasPrefix("agent:") { sessionKey = value; to = nil }
        if let key = options.sessionKey.map(TextTrim.trimmed) {
            sessionKey = try AgentId.scopedSessionKey(key, agentId: agentId)
        }
        // No target at all: the gateway picks the default agent's main session, the official implicit target.
        self.agentId = agentId ?? sessionKey.flatMap { AgentSessionKey.parse($0)?.agentId }
        self.sessionKey = sessionKey

        var params: JSONObject = ["message": .string(message)]
        if let agentId { params["agentId"] = .string(agentId) }
        if let model = options.model { params["model"] = .string(model) }
        if let thinking = options.thinking { params["thinking"] = .string(thinking) }
        if let to { params["to"] = .string(to) }
        if let replyTo = options.replyTo { params["replyTo"] = .string(replyTo) }
        if let sessionId = options.sessionId { params["sessionId"] = .string(TextTrim.trimmed(sessionId)) }
        if let sessionKey { params["sessionKey"] = .string(sessionKey) }
        if let channel = options.replyChannel { params["replyChannel"] = .string(channel) }
        if let account = options.replyAccount { params["replyAccountId"] = .string(account) }
        params["deliver"] = .bool(options.deliver)
        if let channel = options.channel.map(TextTrim.trimmed).flatMap(TextTrim.nonEmpty) { params["channel"] = .string(channel.lowercased()) }
        params["timeout"] = JSONValue(timeoutSeconds)
        params["cleanupBundleMcpOnRunEnd"] = true
        params["idempotencyKey"] = .string(SecureRandom.uuid())
        self.params = params
    }

    /// `--timeout`: whole seconds, 0 for none (the official sentence otherwise).
    private static func timeout(_ text: String?) throws -> Int {
        guard let text else { return AgentCommand.defaultTimeoutSeconds }
        guard let seconds = Int(TextTrim.trimmed(text)), seconds >= 0 else {
            throw CommandFailure(.usage, "Invalid --timeout. Use seconds as a non-negative integer, for example --timeout 600. Use --timeout 0 to disable the timeout.")
        }
        return seconds
    }

    /// `--message TEXT` (`-` reads stdin) or `--message-file PATH` (`-` reads stdin): UTF-8, a BOM
    /// dropped, at most 4 MiB from a file, never empty.
    private static func message(_ options: AgentOptions, signals: SignalWatcher) throws -> String {
        let missing = CommandFailure(.usage, "Missing message. Use openclaw agent --message \"...\" --agent <id> or openclaw agent --message-file <path> --agent <id>.")
        var bytes: [UInt8]
        if let path = options.messageFile {
            bytes = try FileInput.read(path, what: "--message-file", limit: AgentCommand.messageFileLimit + 3, signals: signals)
        } else if options.message == "-" {
            bytes = try FileInput.read("-", what: "stdin", limit: AgentCommand.messageFileLimit + 3, signals: signals)
        } else if let text = options.message {
            bytes = Array(text.utf8)
        } else {
            throw missing
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard bytes.count <= AgentCommand.messageFileLimit else { throw CommandFailure(.usage, "the message is larger than 4 MiB") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CommandFailure(.usage, "the message is not valid UTF-8") }
        guard !TextTrim.trimmed(text).isEmpty else { throw missing }
        return text
    }
}

/// `--session-key` as the official CLI scopes it (`src/routing/session-key.ts`; the agent-id rules are
/// `AgentSessionKey`'s, shared with `sessions`).
enum AgentId {
    /// `agent:<id>:<key>` as is (its agent must match `--agent`), `global` and `unknown` unscoped, a
    /// bare key under `--agent` or the default agent.
    static func scopedSessionKey(_ key: String, agentId: String?) throws -> String {
        if key.hasPrefix("agent:") {
            guard let owner = AgentSessionKey.parse(key)?.agentId, !key.hasSuffix(":") else {
                throw CommandFailure(.usage, "Invalid --session-key \"\(key)\". Agent-prefixed session keys must use agent:<agent-id>:<session-key>.")
            }
            if let agentId, AgentSessionKey.normalizeAgentId(owner) != agentId {
                throw CommandFailure(.usage, "Agent id \"\(agentId)\" does not match session key agent \"\(owner)\".")
            }
            return key
        }
        if key == "global" || key == "unknown" { return key }
        return "agent:\(agentId ?? AgentSessionKey.defaultAgentId):\(key)"
    }
}
