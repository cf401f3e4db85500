@_spi(Engine) import ClawProtocol

/// The official CLI's scripting commands that we answer natively: the official flags and
/// spellings (openclaw/openclaw `src/cli/`, 2026.9.4; docs/protocol.md cites each), so a script
/// written for that CLI runs unchanged. Their subcommands that are not listed here stay the
/// official CLI's (`ArgumentParser.officialCommand`).
extension CommandTable {
    /// The official shared gateway flags (`--url`, `--token` and `--password` are our global ones).
    static func officialGatewayFlags(timeoutDefault: Int) -> [FlagSpec] {
        [
            FlagSpec(long: "timeout", value: .text, placeholder: "MS",
                     help: "limit in milliseconds (default \(timeoutDefault))", binding: .text { $0.official.timeout = $1 }),
            FlagSpec(long: "port", value: .integer(1...65535), placeholder: "PORT",
                     help: "the local gateway's port (ws://127.0.0.1:PORT) when no --url is given", binding: .integer { $0.official.port = $1 }),
            FlagSpec(long: "expect-final", help: "accepted for compatibility (these methods answer once)",
                     binding: .toggle { $0.official.expectFinal = true }),
        ]
    }

    static let jsonFlag = FlagSpec(long: "json", help: "print JSON, as the official CLI's --json", binding: .toggle { $0.official.json = true })

    static let officialVerbs: [CommandSpec] = [
        CommandSpec(
            name: "agent", positionals: .subcommands([], bare: true), summary: "run one agent turn and print its reply (the official CLI's agent)",
            details: "Calls the agent method and waits for the turn's final response. Text prints the reply's payloads; --json prints the final response as the official CLI does; --json-stream prints the turn's agent events as NDJSON while it runs, then that object on one line. A timeout exits 5, a failed or aborted turn 1. SIGINT/SIGTERM abort the turn first. --local runs the official CLI.",
            flags: [
                FlagSpec(long: "message", short: "m", value: .text, placeholder: "TEXT",
                         help: "the message (- reads stdin)", binding: .text { $0.agent.message = $1 }),
                FlagSpec(long: "message-file", value: .file, placeholder: "PATH",
                         help: "read the message from a file (UTF-8, at most 4 MiB; - reads stdin)", binding: .text { $0.agent.messageFile = $1 }),
                FlagSpec(long: "to", short: "t", value: .text, placeholder: "NUMBER",
                         help: "recipient (E.164) the session key is derived from", binding: .text { $0.agent.to = $1 }),
                FlagSpec(long: "session-key", value: .text, placeholder: "KEY", help: "the session key (agent:<id>:<key>, or a bare key)",
                         binding: .text { $0.agent.sessionKey = $1 }),
                FlagSpec(long: "session-id", value: .text, placeholder: "ID", help: "an existing session id", binding: .text { $0.agent.sessionId = $1 }),
                FlagSpec(long: "agent", value: .text, placeholder: "ID", help: "the agent id", binding: .text { $0.agent.agent = $1 }),
                FlagSpec(long: "model", value: .text, placeholder: "ID", help: "model for this turn (provider/model or id)", binding: .text { $0.agent.model = $1 }),
                FlagSpec(long: "thinking", value: .choice(AgentCommand.thinkingLevels), placeholder: "LEVEL",
                         help: "thinking level: " + AgentCommand.thinkingLevelList, binding: .text { $0.agent.thinking = $1 }),
                FlagSpec(long: "verbose", value: .choice(["on", "off"]), placeholder: "on|off",
                         help: "accepted for compatibility (the official CLI's local verbosity; not sent)", binding: .text { $0.agent.verbose = $1 }),
                FlagSpec(long: "channel", value: .text, placeholder: "CHANNEL", help: "delivery channel", binding: .text { $0.agent.channel = $1 }),
                FlagSpec(long: "reply-to", value: .text, placeholder: "TARGET", help: "delivery target override", binding: .text { $0.agent.replyTo = $1 }),
                FlagSpec(long: "reply-channel", value: .text, placeholder: "CHANNEL", help: "delivery channel override", binding: .text { $0.agent.replyChannel = $1 }),
                FlagSpec(long: "reply-account", value: .text, placeholder: "ID", help: "delivery account override", binding: .text { $0.agent.replyAccount = $1 }),
                FlagSpec(long: "local", help: "run the turn in the official CLI's embedded runtime (needs the official CLI)", binding: .toggle { $0.agent.local = true }),
                FlagSpec(long: "deliver", help: "send the reply to the selected channel", binding: .toggle { $0.agent.deliver = true }),
                FlagSpec(long: "json", help: "print the final response as JSON", binding: .toggle { $0.agent.json = true }),
                FlagSpec(long: "json-stream", help: "NDJSON of the turn's events as they arrive, then the --json object on one line",
                         binding: .toggle { $0.agent.jsonStream = true }),
                FlagSpec(long: "timeout", value: .text, placeholder: "SECONDS",
                         help: "limit for the turn in seconds, 0 = none (default 600)", binding: .text { $0.agent.timeout = $1 }),
            ],
            defaultTimeout: 0,
            capabilities: { options, _ in options.agent.jsonStream ? [ConnectRequest.toolEventsCapability] : [] },
            run: AgentCommand.run),
        CommandSpec(
            name: "sessions", arguments: "[list]", positionals: .subcommands(["list"], bare: true),
            summary: "list the sessions of the local session stores (the official CLI's sessions)",
            details: "Reads the agents' SQLite session stores read-only, as the official CLI does, with the gateway up or down. With --url, or a config in remote mode, asks the gateway (sessions.list, every page). --json prints the official document. Other subcommands (cleanup, archive, …) run the official CLI.",
            flags: [
                FlagSpec(long: "json", help: "print the official JSON document", binding: .toggle { $0.official.json = true }),
                FlagSpec(long: "verbose", help: "accepted for compatibility", binding: .toggle { $0.official.verbose = true }),
                FlagSpec(long: "agent", value: .text, placeholder: "ID", help: "the agent whose store to read (default: the default agent)",
                         binding: .text { $0.sessions.agent = $1 }),
                FlagSpec(long: "all-agents", help: "every agent's store", binding: .toggle { $0.sessions.allAgents = true }),
                FlagSpec(long: "store", value: .text, placeholder: "PATH", help: "a store path (a legacy sessions.json path maps to its SQLite store)",
                         binding: .text { $0.sessions.store = $1 }),
                FlagSpec(long: "active", value: .text, placeholder: "MINUTES", help: "only sessions updated in the last MINUTES",
                         binding: .text { $0.sessions.active = $1 }),
                FlagSpec(long: "limit", value: .text, placeholder: "N|all", help: "at most N sessions, newest first (default 100)",
                         binding: .text { $0.sessions.limit = $1 }),
            ],
            defaultTimeout: 30,
            run: SessionsCommand.run),
        CommandSpec(
            name: "logs", summary: "print or follow the gateway's log (the official CLI's logs)",
            details: "Calls logs.tail; --follow polls the cursor every --interval ms, following a rotated or truncated log with one notice, in constant memory. --json prints one record per line (meta, log, notice, raw) as the official CLI does.",
            flags: [
                FlagSpec(long: "limit", value: .text, placeholder: "N", help: "lines per poll (default 200)", binding: .text { $0.logs.limit = $1 }),
                FlagSpec(long: "max-bytes", value: .text, placeholder: "N", help: "bytes per poll (default 250000)", binding: .text { $0.logs.maxBytes = $1 }),
                FlagSpec(long: "interval", value: .text, placeholder: "MS", help: "pause between polls with --follow (default 1000)",
                         binding: .text { $0.logs.interval = $1 }),
                FlagSpec(long: "follow", help: "keep printing new lines until stopped", binding: .toggle { $0.logs.follow = true }),
                jsonFlag,
                FlagSpec(long: "plain", help: "no colour", binding: .toggle { $0.logs.plain = true }),
                FlagSpec(long: "utc", help: "times in UTC (ISO 8601)", binding: .toggle { $0.logs.utc = true }),
                FlagSpec(long: "local-time", help: "times in local time (the default)", binding: .toggle { $0.logs.localTime = true }),
            ] + officialGatewayFlags(timeoutDefault: 30_000),
            defaultTimeout: 0,
            run: LogsCommand.run),
        CommandSpec(
            name: "health", summary: "the gateway's health summary (the official CLI's health)",
            details: "Calls health (--verbose: a fresh probe). Exit 0 when the gateway answers; --json prints the summary, or the official transport-error envelope.",
            flags: [
                jsonFlag,
                FlagSpec(long: "timeout", value: .text, placeholder: "MS", help: "limit in milliseconds (default 10000)",
                         binding: .text { $0.official.timeout = $1 }),
                FlagSpec(long: "verbose", help: "probe the channels now instead of a cached summary", binding: .toggle { $0.official.verbose = true }),
                FlagSpec(long: "debug", help: "same as --verbose", binding: .toggle { $0.official.verbose = true }),
            ],
            defaultTimeout: 0,
            run: HealthCommand.run),
        CommandSpec(
            name: "system", arguments: "event", positionals: .subcommands(["event"]),
            summary: "queue a system event for the agent (the official CLI's system event)",
            details: "Calls wake with --text and --mode; prints ok (--json: the result). Other system subcommands run the official CLI.",
            flags: [
                FlagSpec(long: "text", value: .text, placeholder: "TEXT", help: "the event text (required)", binding: .text { $0.systemEvent.text = $1 }),
                FlagSpec(long: "mode", value: .text, placeholder: "MODE", help: "now or next-heartbeat (default next-heartbeat)",
                         binding: .text { $0.systemEvent.mode = $1 }),
                FlagSpec(long: "session-key", value: .text, placeholder: "KEY", help: "the session to wake (default the main session)",
                         binding: .text { $0.systemEvent.sessionKey = $1 }),
                jsonFlag,
            ] + officialGatewayFlags(timeoutDefault: 30_000),
            defaultTimeout: 0,
            run: SystemEventCommand.run),
    ] + CronCommand.names.map { name in
        CommandSpec(
            name: name, arguments: "list|runs|run [ID]", positionals: .subcommands(["list", "runs", "run"]),
            summary: name == "cron" ? "list, inspect and run scheduled jobs (the official CLI's cron)" : "the same as cron (the official CLI's newer name)",
            details: "list: every job, all pages merged (--all includes disabled ones). runs: a job's run log. run ID: run the job now; --wait polls its run until it ends (exit 0 only when it succeeded, 5 on --wait-timeout). Other subcommands run the official CLI.",
            flags: [
                jsonFlag,
                FlagSpec(long: "all", help: "list: include disabled jobs", binding: .toggle { $0.cron.all = true }),
                FlagSpec(long: "agent", value: .text, placeholder: "ID", help: "list: only this agent's jobs", binding: .text { $0.cron.agent = $1 }),
                FlagSpec(long: "id", value: .text, placeholder: "ID", help: "runs: the job id (or positionally)", binding: .text { $0.cron.id = $1 }),
                FlagSpec(long: "run-id", value: .text, placeholder: "ID", help: "runs: only this run", binding: .text { $0.cron.runId = $1 }),
                FlagSpec(long: "limit", value: .text, placeholder: "N", help: "runs: at most N entries (default 50)", binding: .text { $0.cron.limit = $1 }),
                FlagSpec(long: "due", help: "run: only if the job is due", binding: .toggle { $0.cron.due = true }),
                FlagSpec(long: "wait", help: "run: wait until the run ends", binding: .toggle { $0.cron.wait = true }),
                FlagSpec(long: "wait-timeout", value: .text, placeholder: "DURATION", help: "run --wait: limit (default 10m; a bare number is ms)",
                         binding: .text { $0.cron.waitTimeout = $1 }),
                FlagSpec(long: "poll-interval", value: .text, placeholder: "DURATION", help: "run --wait: pause between polls (default 2s)",
                         binding: .text { $0.cron.pollInterval = $1 }),
            ] + officialGatewayFlags(timeoutDefault: 30_000),
            defaultTimeout: 0,
            run: CronCommand.run)
    }
}
