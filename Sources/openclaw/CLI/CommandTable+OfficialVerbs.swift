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
                     help: "limit in milliseconds (default \(timeoutDefault))", binding: .text(\.official.timeout)),
            FlagSpec(long: "port", value: .integer(1...65535), placeholder: "PORT",
                     help: "the local gateway's port (ws://127.0.0.1:PORT) when no --url is given", binding: .integer(\.official.port)),
            FlagSpec(long: "expect-final", help: "accepted for compatibility (these methods answer once)",
                     binding: .toggle(\.official.expectFinal)),
        ]
    }

    static let jsonFlag = FlagSpec(long: "json", help: "print JSON, as the official CLI's --json", binding: .toggle(\.official.json))

    static let officialVerbs: [CommandSpec] = [
        CommandSpec(
            name: "agent", positionals: .subcommands([], bare: true), summary: "run one agent turn and print its reply (the official CLI's agent)",
            details: "Calls the agent method and waits for the turn's final response. Text prints the reply's payloads; --json prints the final response as the official CLI does; --json-stream prints the turn's agent events as NDJSON while it runs, then that object on one line. A timeout exits 5, a failed or aborted turn 1. SIGINT/SIGTERM abort the turn first. --local runs the official CLI.",
            flags: [
                FlagSpec(long: "message", short: "m", value: .text, placeholder: "TEXT",
                         help: "the message (- reads stdin)", binding: .text(\.agent.message)),
                FlagSpec(long: "message-file", value: .file, placeholder: "PATH",
                         help: "read the message from a file (UTF-8, at most 4 MiB; - reads stdin)", binding: .text(\.agent.messageFile)),
                FlagSpec(long: "to", short: "t", value: .text, placeholder: "NUMBER",
                         help: "recipient (E.164) the session key is derived from", binding: .text(\.agent.to)),
                FlagSpec(long: "session-key", value: .text, placeholder: "KEY", help: "the session key (agent:<id>:<key>, or a bare key)",
                         binding: .text(\.agent.sessionKey)),
                FlagSpec(long: "session-id", value: .text, placeholder: "ID", help: "an existing session id", binding: .text(\.agent.sessionId)),
                FlagSpec(long: "agent", value: .text, placeholder: "ID", help: "the agent id", binding: .text(\.agent.agent)),
                FlagSpec(long: "model", value: .text, placeholder: "ID", help: "model for this turn (provider/model or id)", binding: .text(\.agent.model)),
                FlagSpec(long: "thinking", value: .choice(AgentCommand.thinkingLevels), placeholder: "LEVEL",
                         help: "thinking level: " + AgentCommand.thinkingLevels.joined(separator: ", "), binding: .text(\.agent.thinking)),
                FlagSpec(long: "verbose", value: .choice(["on", "off"]), placeholder: "on|off",
                         help: "accepted for compatibility (the official CLI's local verbosity; not sent)", binding: .text(\.agent.verbose)),
                FlagSpec(long: "channel", value: .text, placeholder: "CHANNEL", help: "delivery channel", binding: .text(\.agent.channel)),
                FlagSpec(long: "reply-to", value: .text, placeholder: "TARGET", help: "delivery target override", binding: .text(\.agent.replyTo)),
                FlagSpec(long: "reply-channel", value: .text, placeholder: "CHANNEL", help: "delivery channel override", binding: .text(\.agent.replyChannel)),
                FlagSpec(long: "reply-account", value: .text, placeholder: "ID", help: "delivery account override", binding: .text(\.agent.replyAccount)),
                FlagSpec(long: "local", help: "run the turn in the official CLI's embedded runtime (needs the official CLI)", binding: .toggle(\.agent.local)),
                FlagSpec(long: "deliver", help: "send the reply to the selected channel", binding: .toggle(\.agent.deliver)),
                FlagSpec(long: "json", help: "print the final response as JSON", binding: .toggle(\.agent.json)),
                FlagSpec(long: "json-stream", help: "NDJSON of the turn's events as they arrive, then the --json object on one line",
                         binding: .toggle(\.agent.jsonStream)),
                FlagSpec(long: "timeout", value: .text, placeholder: "SECONDS",
                         help: "limit for the turn in seconds, 0 = none (default 600)", binding: .text(\.agent.timeout)),
            ],
            defaultTimeout: 0,
            capabilities: { options, _ in options.agent.jsonStream ? [ConnectRequest.toolEventsCapability] : [] },
            run: AgentCommand.run),
        CommandSpec(
            name: "sessions", arguments: "[list]", positionals: .subcommands(["list"], bare: true),
            summary: "list the sessions of the local session stores (the official CLI's sessions)",
            details: "Reads the agents' SQLite session stores read-only, as the official CLI does, with the gateway up or down. With --url, or a config in remote mode, asks the gateway (sessions.list, every page). --json prints the official document. Other subcommands (cleanup, archive, …) run the official CLI.",
            flags: [
                FlagSpec(long: "json", help: "print the official JSON document", binding: .toggle(\.official.json)),
                FlagSpec(long: "verbose", help: "accepted for compatibility", binding: .toggle(\.official.verbose)),
                FlagSpec(long: "agent", value: .text, placeholder: "ID", help: "the agent whose store to read (default: the default agent)",
                         binding: .text(\.sessions.agent)),
                FlagSpec(long: "all-agents", help: "every agent's store", binding: .toggle(\.sessions.allAgents)),
                FlagSpec(long: "store", value: .text, placeholder: "PATH", help: "a store path (a legacy sessions.json path maps to its SQLite store)",
                         binding: .text(\.sessions.store)),
                FlagSpec(long: "active", value: .text, placeholder: "MINUTES", help: "only sessions updated in the last MINUTES",
                         binding: .text(\.sessions.active)),
                FlagSpec(long: "limit", value: .text, placeholder: "N|all", help: "at most N sessions, newest first (default 100)",
                         binding: .text(\.sessions.limit)),
            ],
            defaultTimeout: 30,
            run: SessionsCommand.run),
        CommandSpec(
            name: "logs", summary: "print or follow the gateway's log (the official CLI's logs)",
            details: "Calls logs.tail; --follow polls the cursor every --interval ms, following a rotated or truncated log with one notice, in constant memory. --json prints one record per line (meta, log, notice, raw) as the official CLI does.",
            flags: [
                FlagSpec(long: "limit", value: .text, placeholder: "N", help: "lines per poll (default 200)", binding: .text(\.logs.limit)),
                FlagSpec(long: "max-bytes", value: .text, placeholder: "N", help: "bytes per poll (default 250000)", binding: .text(\.logs.maxBytes)),
                FlagSpec(long: "interval", value: .text, placeholder: "MS", help: "pause between polls with --follow (default 1000)",
                         binding: .text(\.logs.interval)),
                FlagSpec(long: "follow", help: "keep printing new lines until stopped", binding: .toggle(\.logs.follow)),
                jsonFlag,
                FlagSpec(long: "plain", help: "no colour", binding: .toggle(\.logs.plain)),
                FlagSpec(long: "utc", help: "times in UTC (ISO 8601)", binding: .toggle(\.logs.utc)),
                FlagSpec(long: "local-time", help: "times in local time (the default)", binding: .toggle(\.logs.localTime)),
            ] + officialGatewayFlags(timeoutDefault: 30_000),
            defaultTimeout: 0,
            run: LogsCommand.run),
        CommandSpec(
            name: "health", summary: "the gateway's health summary (the official CLI's health)",
            details: "Calls health (--verbose: a fresh probe). Exit 0 when the gateway answers; --json prints the summary, or the official transport-error envelope.",
            flags: [
                jsonFlag,
                FlagSpec(long: "timeout", value: .text, placeholder: "MS", help: "limit in milliseconds (default 10000)",
                         binding: .text(\.official.timeout)),
                FlagSpec(long: "verbose", help: "probe the channels now instead of a cached summary", binding: .toggle(\.official.verbose)),
                FlagSpec(long: "debug", help: "same as --verbose", binding: .toggle(\.official.verbose)),
            ],
            defaultTimeout: 0,
            run: HealthCommand.run),
        CommandSpec(
            name: "system", arguments: "event", positionals: .subcommands(["event"]),
            summary: "queue a system event for the agent (the official CLI's system event)",
            details: "Calls wake with --text and --mode; prints ok (--json: the result). Other system subcommands run the official CLI.",
            flags: [
                FlagSpec(long: "text", value: .text, placeholder: "TEXT", help: "the event text (required)", binding: .text(\.systemEvent.text)),
                FlagSpec(long: "mode", value: .text, placeholder: "MODE", help: "now or next-heartbeat (default next-heartbeat)",
                         binding: .text(\.systemEvent.mode)),
                FlagSpec(long: "session-key", value: .text, placeholder: "KEY", help: "the session to wake (default the main session)",
                         binding: .text(\.systemEvent.sessionKey)),
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
                FlagSpec(long: "all", help: "list: include disabled jobs", binding: .toggle(\.cron.all)),
                FlagSpec(long: "agent", value: .text, placeholder: "ID", help: "list: only this agent's jobs", binding: .text(\.cron.agent)),
                FlagSpec(long: "id", value: .text, placeholder: "ID", help: "runs: the job id (or positionally)", binding: .text(\.cron.id)),
                FlagSpec(long: "run-id", value: .text, placeholder: "ID", help: "runs: only this run", binding: .text(\.cron.runId)),
                FlagSpec(long: "limit", value: .text, placeholder: "N", help: "runs: at most N entries (default 50)", binding: .text(\.cron.limit)),
                FlagSpec(long: "due", help: "run: only if the job is due", binding: .toggle(\.cron.due)),
                FlagSpec(long: "wait", help: "run: wait until the run ends", binding: .toggle(\.cron.wait)),
                FlagSpec(long: "wait-timeout", value: .text, placeholder: "DURATION", help: "run --wait: limit (default 10m; a bare number is ms)",
                         binding: .text(\.cron.waitTimeout)),
                FlagSpec(long: "poll-interval", value: .text, placeholder: "DURATION", help: "run --wait: pause between polls (default 2s)",
                         binding: .text(\.cron.pollInterval)),
            ] + officialGatewayFlags(timeoutDefault: 30_000),
            defaultTimeout: 0,
            run: CronCommand.run)
    }
}
