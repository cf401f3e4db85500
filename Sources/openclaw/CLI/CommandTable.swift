@_spi(Engine) import ClawProtocol
/// The one description of openclaw's interface: the parser, `--help`, the completion
/// scripts and the man page are all generated from these tables.

/// What a flag's value is, for parsing, help and completion.
enum ValueKind: Equatable, Sendable {
    /// A switch: present or not.
    case none
    case text
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// Seconds, fractions allowed, within the range.
    case seconds(ClosedRange<Double>)
    case choice([String])
    case file
    case directory
}

/// Where a flag's validated value lands in `Options`: a closure that stores it, so a renamed field is
/// a compile error. Not a key path: each key path literal is instantiated at run time (its pattern
/// walked, its generic class built by mangled name), which cost every command ~2 M instructions
/// before it began (bench/README.md).
enum FlagBinding: Sendable {
    case toggle(@Sendable (inout Options) -> Void)
    case text(@Sendable (inout Options, String) -> Void)
    /// A repeatable flag: each value is appended.
    case texts(@Sendable (inout Options, String) -> Void)
    case integer(@Sendable (inout Options, Int) -> Void)
    case seconds(@Sendable (inout Options, Double) -> Void)
    case format(@Sendable (inout Options, OutputFormat) -> Void)
}

struct FlagSpec: Sendable {
    let long: String
    var short: Character? = nil
    var value: ValueKind = .none
    /// The value's name in help (`--limit N`).
    var placeholder: String = ""
    /// Environment variables consulted when the flag is absent (documentation; resolution is elsewhere).
    var environment: [String] = []
    let help: String
    let binding: FlagBinding

    var takesValue: Bool { value != .none }
    /// Completion offers the gateway's session keys for this flag.
    var isSessionKey: Bool { long == "session" }
    var repeatable: Bool { if case .texts = binding { return true } else { return false } }
    /// `-s, --session KEY`
    var signature: String {
        let name = (short.map { "-\($0), " } ?? "") + "--\(long)"
        return takesValue ? "\(name) \(placeholder)" : name
    }

    /// Stores a value that `ArgumentParser.validate` accepted (canonical text; "" for a switch).
    func apply(_ value: String, to options: inout Options) {
        switch binding {
        case .toggle(let store): store(&options)
        case .text(let store), .texts(let store): store(&options, value)
        case .integer(let store): if let number = Int(value) { store(&options, number) }
        case .seconds(let store): if let seconds = Double(value) { store(&options, seconds) }
        case .format(let store): store(&options, OutputFormat(rawValue: value) ?? .ndjson)
        }
    }
}

/// What a command does with its positional arguments, for the parser and the completion scripts.
enum Positionals: Equatable, Sendable {
    case none
    /// Free words (`send`'s message).
    case message
    /// `METHOD [PARAMS]`.
    case methodAndParams
    /// One of the completion shells.
    case shell
    /// A command name (`help COMMAND`).
    case command
    /// `call METHOD` (`gateway call`; the other `gateway` subcommands are the official CLI's).
    case gatewayCall
    /// A subcommand word of the official CLI's that we answer (`system event`, `cron run ID`), then
    /// free words; the command's other subcommands are the official CLI's. `bare`: the command with
    /// no subcommand word is ours too (`sessions`, `agent`).
    case subcommands([String], bare: Bool = false)

    /// Whether the command line's second word (nil: none) leaves the command ours rather than the
    /// official CLI's; always true for commands without subcommands.
    func answers(subcommand word: String?) -> Bool {
        guard case .subcommands(let words, let bare) = self else { return true }
        guard let word else { return bare }
        return words.contains(word)
    }
}

struct CommandSpec: Sendable {
    typealias Handler = @Sendable (CommandContext) throws -> Void

    let name: String
    /// Positional arguments as shown in the synopsis (`[MESSAGE...]`).
    var arguments: String = ""
    var positionals: Positionals = .none
    let summary: String
    /// Longer text for `help COMMAND` and the man page.
    var details: String = ""
    var flags: [FlagSpec] = []
    /// `--timeout` when not given; 0 = none.
    var defaultTimeout: Double = 30
    /// Not listed in help or completions (internal generators).
    var hidden = false
    /// `connect.params.caps` the command asks for, from its options.
    var capabilities: @Sendable (Options, OutputFormat) -> [String] = { _, _ in [] }
    let run: Handler
}

enum CommandTable {
    static let globalFlags: [FlagSpec] = [
        FlagSpec(long: "url", short: "u", value: .text, placeholder: "URL",
                 environment: ["OPENCLAW_GATEWAY_URL"],
                 help: "gateway URL, ws:// or wss://", binding: .text { $0.global.url = $1 }),
        FlagSpec(long: "token", short: "t", value: .text, placeholder: "TOKEN",
                 environment: ["OPENCLAW_GATEWAY_TOKEN"],
                 help: "shared gateway token", binding: .text { $0.global.token = $1 }),
        FlagSpec(long: "token-file", value: .file, placeholder: "PATH",
                 help: "read the token from a file (- = stdin); keeps it out of ps", binding: .text { $0.global.tokenFile = $1 }),
        FlagSpec(long: "password", value: .text, placeholder: "PASSWORD",
                 environment: ["OPENCLAW_GATEWAY_PASSWORD"], help: "gateway password", binding: .text { $0.global.password = $1 }),
        FlagSpec(long: "session", short: "s", value: .text, placeholder: "KEY",
                 help: "session key (default main; for watch: only this session's events)", binding: .text { $0.global.session = $1 }),
        FlagSpec(long: "timeout", value: .seconds(0...31_536_000), placeholder: "SECONDS",
                 help: "limit for the whole command, 0 = none (default: none for watch, 600 for send, 30 otherwise)", binding: .seconds { $0.global.timeout = $1 }),
        FlagSpec(long: "connect-timeout", value: .seconds(0.001...3600), placeholder: "SECONDS",
                 help: "limit for socket, TLS and handshake (default 10)", binding: .seconds { $0.global.connectTimeout = $1 }),
        FlagSpec(long: "retry-connrefused", help: "when nothing listens yet (connection refused), try again until --timeout, as curl's --retry-connrefused",
                 binding: .toggle { $0.global.retryConnectionRefused = true }),
        FlagSpec(long: "wait-for-pairing", help: "an unpaired device waits for the administrator's decision until --timeout instead of exiting 4",
                 binding: .toggle { $0.global.waitForPairing = true }),
        FlagSpec(long: "output", short: "o", value: .choice(OutputFormat.allCases.map { $0.rawValue }), placeholder: "FORMAT",
                 help: "output format: ndjson (default) or text", binding: .format { $0.global.output = $1 }),
        FlagSpec(long: "raw", help: "also print the handshake frames and every other frame received (ndjson only)", binding: .toggle { $0.global.raw = true }),
        FlagSpec(long: "trace", help: "write every frame sent and received to stderr as NDJSON, secrets redacted", binding: .toggle { $0.global.trace = true }),
        FlagSpec(long: "strict", help: "exit 6 on a frame this client does not understand instead of skipping it with a note",
                 binding: .toggle { $0.global.strict = true }),
        FlagSpec(long: "quiet", short: "q", help: "no diagnostics on stderr except the final error", binding: .toggle { $0.global.quiet = true }),
        FlagSpec(long: "state-dir", value: .directory, placeholder: "DIR", environment: ["OPENCLAW_STATE_DIR"],
                 help: "OpenClaw state directory (default ~/.openclaw)", binding: .text { $0.global.stateDirectory = $1 }),
        FlagSpec(long: "config", value: .file, placeholder: "PATH", environment: ["OPENCLAW_CONFIG_PATH"],
                 help: "OpenClaw config file, JSON5 (default <state>/openclaw.json)", binding: .text { $0.global.config = $1 }),
        FlagSpec(long: "profile", value: .text, placeholder: "NAME", environment: ["OPENCLAW_PROFILE"],
                 help: "use the OpenClaw profile NAME: state and config in ~/.openclaw-NAME", binding: .text { $0.global.profile = $1 }),
        FlagSpec(long: "dev", help: "use the dev profile: ~/.openclaw-dev, local gateway port 19001", binding: .toggle { $0.global.dev = true }),
        FlagSpec(long: "log-level", value: .choice(OfficialLogLevel.all), placeholder: "LEVEL",
                 help: "the official CLI's log level: silent, fatal or error quiet diagnostics as --quiet does; the others change nothing",
                 binding: .text { $0.global.logLevel = $1 }),
        FlagSpec(long: "no-color", help: "no ANSI colour (as NO_COLOR)", binding: .toggle { $0.global.noColor = true }),
        FlagSpec(long: "container", value: .text, placeholder: "NAME",
                 help: "run the whole command inside the running Podman/Docker container NAME, through the official CLI",
                 binding: .text { $0.global.container = $1 }),
        FlagSpec(long: "no-device", help: "connect without a device identity (token only; the gateway may grant no scopes)", binding: .toggle { $0.global.noDevice = true }),
        FlagSpec(long: "scope", value: .text, placeholder: "SCOPE",
                 help: "request this operator scope (repeatable; default operator.read and operator.write)", binding: .texts { $0.global.scopes.append($1) }),
        FlagSpec(long: "tls-fingerprint", value: .text, placeholder: "SHA256",
                 help: "pin the gateway certificate by its SHA-256 fingerprint", binding: .text { $0.global.tlsFingerprint = $1 }),
        FlagSpec(long: "cacert", value: .file, placeholder: "PATH", help: "trust this PEM CA bundle for wss://", binding: .text { $0.global.caBundle = $1 }),
        FlagSpec(long: "help", short: "h", help: "show help", binding: .toggle { $0.global.help = true }),
        FlagSpec(long: "version", short: "V", help: "print the version (also -v before the command word, as the official CLI)",
                 binding: .toggle { $0.global.version = true }),
    ]

    static let commands: [CommandSpec] = [
        CommandSpec(
            name: "history", summary: "print a session's transcript",
            details: "Calls chat.history for the session. ndjson prints the res frame; text prints one line per message as `role: text`.",
            flags: [
                FlagSpec(long: "limit", short: "n", value: .integer(1...1000), placeholder: "N",
                         help: "the last N messages (1-1000, default 200; with --all the page size, default 1000)", binding: .integer { $0.history.limit = $1 }),
                FlagSpec(long: "all", help: "every message: follow the gateway's pages, print them oldest first", binding: .toggle { $0.history.all = true }),
            ],
            run: HistoryCommand.run),
        CommandSpec(
            name: "send", arguments: "[MESSAGE...]", positionals: .message, summary: "send a message and stream the reply",
            details: "The message is the arguments joined by spaces; `-`, or no argument with stdin not a terminal, reads stdin. ndjson prints the chat.send res frame and then every chat event of the run until it ends. text prints the final reply once when stdout is not a terminal (--stream: append-only as it grows) and streams it live on a terminal. A stop command (/stop) prints the abort ack. SIGINT/SIGTERM abort the run first.",
            flags: [
                FlagSpec(long: "file", short: "f", value: .file, placeholder: "PATH", help: "read the message from a file", binding: .text { $0.send.file = $1 }),
                FlagSpec(long: "thinking", value: .text, placeholder: "LEVEL", help: "thinking level for this turn (e.g. low, high)", binding: .text { $0.send.thinking = $1 }),
                FlagSpec(long: "deliver", help: "also deliver the reply to the session's last external channel", binding: .toggle { $0.send.deliver = true }),
                FlagSpec(long: "attach", value: .file, placeholder: "PATH",
                         help: "attach a file (repeatable; sent base64 with its MIME type)", binding: .texts { $0.send.attachments.append($1) }),
                FlagSpec(long: "idempotency-key", value: .text, placeholder: "KEY",
                         help: "idempotency key and run id (default: a fresh UUID); a stable key makes retries safe", binding: .text { $0.send.idempotencyKey = $1 }),
                FlagSpec(long: "no-wait", help: "print the ack and exit, leaving the run going (every other end of send aborts it)", binding: .toggle { $0.send.noWait = true }),
                FlagSpec(long: "queue-mode", value: .choice(["steer", "followup", "collect", "interrupt"]), placeholder: "MODE",
                         help: "while a run is active: steer it, queue a followup, collect, or interrupt it", binding: .text { $0.send.queueMode = $1 }),
                FlagSpec(long: "agent-events", help: "also print the run's agent events", binding: .toggle { $0.send.agentEvents = true }),
                FlagSpec(long: "stream", help: "text mode into a pipe: stream the reply append-only instead of printing the final text once",
                         binding: .toggle { $0.send.stream = true }),
            ],
            defaultTimeout: 600,
            // The gateway sends tool events only to connections that ask; text mode shows them as progress.
            capabilities: { options, format in
                options.send.agentEvents || format == .text ? [ConnectRequest.toolEventsCapability] : []
            },
            run: SendCommand.run),
        CommandSpec(
            name: "abort", summary: "abort the session's active run(s)",
            details: "Calls chat.abort; without --run it aborts every active run of the session.",
            flags: [
                FlagSpec(long: "run", value: .text, placeholder: "ID", help: "abort only this run", binding: .text { $0.abort.run = $1 }),
            ],
            run: AbortCommand.run),
        CommandSpec(
            name: "watch", summary: "stream gateway events until stopped",
            details: "Prints every event frame except tick, reconnecting with backoff when the link drops (a link that drops within two ticks counts as a failed attempt; a starting gateway's retryAfterMs is honoured). Reconnects and sequence gaps are reported on stderr; --client-events also prints connected, disconnected, connect-failed, reconnected, gap and gave-up lines.",
            flags: [
                FlagSpec(long: "event", short: "e", value: .text, placeholder: "NAME",
                         help: "only events with this name (repeatable; '*' for all, including tick)", binding: .texts { $0.watch.events.append($1) }),
                FlagSpec(long: "run", value: .text, placeholder: "ID", help: "only chat/agent events of this run", binding: .text { $0.watch.run = $1 }),
                FlagSpec(long: "count", value: .integer(1...Int.max), placeholder: "N", help: "exit after N printed events", binding: .integer { $0.watch.count = $1 }),
                FlagSpec(long: "until-final", help: "exit after the first run that ends (final, aborted or error)", binding: .toggle { $0.watch.untilFinal = true }),
                FlagSpec(long: "max-retries", value: .integer(0...Int.max), placeholder: "N",
                         help: "give up after N failed reconnects in a row (default unlimited)", binding: .integer { $0.watch.maxRetries = $1 }),
                FlagSpec(long: "no-reconnect", help: "exit 3 when the connection drops instead of reconnecting", binding: .toggle { $0.watch.noReconnect = true }),
                FlagSpec(long: "backoff-base", value: .seconds(0.001...3600), placeholder: "SECONDS",
                         help: "first reconnect delay (default 1)", binding: .seconds { $0.watch.backoffBase = $1 }),
                FlagSpec(long: "backoff-max", value: .seconds(0.001...3600), placeholder: "SECONDS",
                         help: "longest reconnect delay (default 30)", binding: .seconds { $0.watch.backoffMax = $1 }),
                FlagSpec(long: "client-events", help: "also print {\"type\":\"client\",…} lines: connected, disconnected, connect-failed, reconnected, gap, gave-up", binding: .toggle { $0.watch.clientEvents = true }),
                FlagSpec(long: "resync", help: "after each reconnect, print a fresh chat.history res for the session", binding: .toggle { $0.watch.resync = true }),
                FlagSpec(long: "sessions", help: "subscribe to session-list changes (sessions.changed events)", binding: .toggle { $0.watch.sessions = true }),
                FlagSpec(long: "messages", help: "subscribe to the --session transcript (session.message events; default main)", binding: .toggle { $0.watch.messages = true }),
            ],
            defaultTimeout: 0,
            run: WatchCommand.run),
        CommandSpec(
            name: "call", arguments: "METHOD [PARAMS]", positionals: .methodAndParams, summary: "call any gateway method with JSON params",
            details: "PARAMS is a JSON object (an argument, or - for stdin; default {}). Prints the res frame.",
            flags: [
                FlagSpec(long: "expect-final", help: "wait past an `accepted` ack for the final res", binding: .toggle { $0.call.expectFinal = true }),
                FlagSpec(long: "batch", help: "read {\"method\":…,\"params\":…} lines from stdin, pipeline them, print each res", binding: .toggle { $0.call.batch = true }),
            ],
            run: CallCommand.run),
        CommandSpec(
            name: GatewayCallCommand.parent, arguments: "call METHOD", positionals: .gatewayCall,
            summary: "the official CLI's gateway call, answered natively",
            details: "Flags, output and exit status as the official `openclaw gateway call`: a `Gateway call: METHOD` line, "
                + "then the result as indented JSON (with --json only the JSON, and a gateway error as JSON too). "
                + "--timeout is in milliseconds here (default 10000). Every other gateway subcommand runs the official CLI.",
            flags: [
                FlagSpec(long: "params", value: .text, placeholder: "JSON", help: "params, a JSON object (default {})",
                         binding: .text { $0.gatewayCall.params = $1 }),
                FlagSpec(long: "json", help: "print only the JSON, errors included", binding: .toggle { $0.gatewayCall.json = true }),
                FlagSpec(long: "timeout", value: .text, placeholder: "MS",
                         help: "limit in milliseconds (default 10000)", binding: .text { $0.gatewayCall.timeout = $1 }),
                FlagSpec(long: "expect-final", help: "wait past an `accepted` ack for the final res",
                         binding: .toggle { $0.gatewayCall.expectFinal = true }),
            ],
            defaultTimeout: 10,
            run: GatewayCallCommand.run),
    ] + officialVerbs + [
        CommandSpec(
            name: "completion", arguments: "bash|zsh|fish", positionals: .shell, summary: "print a shell completion script",
            flags: [
                FlagSpec(long: "shell", value: .choice(CompletionModel.shells), placeholder: "SHELL",
                         help: "the shell, as the official CLI spells it (instead of the argument)", binding: .text { $0.completion.shell = $1 }),
            ],
            run: CompletionCommand.run),
        CommandSpec(name: "help", arguments: "[COMMAND]", positionals: .command, summary: "show help", run: HelpCommand.run),
        CommandSpec(name: "version", summary: "print the version", run: VersionCommand.run),
        CommandSpec(name: CompletionCommand.sessionKeysCommand, summary: "print the gateway's session keys, one a line, for the completion scripts",
                    hidden: true, run: CompletionCommand.sessionKeys),
        CommandSpec(name: "__man", summary: "print the man page in roff; `make man` writes man/openclaw.1", hidden: true,
                    run: { context in context.console.out.write(ManPage.document) }),
    ]

    static func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The flags valid for `command`: its own, then the global ones. A command's own spelling wins
    /// (the official `agent -t` is `--to`, its `--timeout` seconds): a global flag it shadows is left
    /// out, or keeps only its long name.
    static func flags(for command: CommandSpec?) -> [FlagSpec] {
        guard let own = command?.flags, !own.isEmpty else { return globalFlags }
        let longs = Set(own.map { $0.long }), shorts = Set(own.compactMap { $0.short })
        return own + globalFlags.compactMap { flag in
            if longs.contains(flag.long) { return nil }
            guard let short = flag.short, shorts.contains(short) else { return flag }
            var unshortened = flag
            unshortened.short = nil
            return unshortened
        }
    }

    /// Every flag of every command: decides which tokens take a value before the command is known.
    static let allFlags: [FlagSpec] = globalFlags + commands.flatMap { $0.flags }
}
