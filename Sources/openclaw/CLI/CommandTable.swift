/// The one description of openclaw's interface: the parser, `--help`, the completion
/// scripts and the man page are all generated from these tables.

/// What a flag's value is, for parsing, help and completion.
enum ValueKind: Equatable {
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

struct FlagSpec {
    let long: String
    var short: Character? = nil
    var value: ValueKind = .none
    /// The value's name in help (`--limit N`).
    var placeholder: String = ""
    var repeatable = false
    /// Environment variables consulted when the flag is absent (documentation; resolution is elsewhere).
    var environment: [String] = []
    let help: String

    var takesValue: Bool { value != .none }
    /// `-s, --session KEY`
    var signature: String {
        let name = (short.map { "-\($0), " } ?? "") + "--\(long)"
        return takesValue ? "\(name) \(placeholder)" : name
    }
}

struct CommandSpec {
    let name: String
    /// Positional arguments as shown in the synopsis (`[MESSAGE...]`).
    var arguments: String = ""
    let summary: String
    /// Longer text for `help COMMAND` and the man page.
    var details: String = ""
    var flags: [FlagSpec] = []
    /// Not listed in help or completions (internal generators).
    var hidden = false
}

enum CommandTable {
    static let globalFlags: [FlagSpec] = [
        FlagSpec(long: "url", short: "u", value: .text, placeholder: "URL",
                 environment: ["OPENCLAW_GATEWAY_URL", "CLAWDBOT_GATEWAY_URL"],
                 help: "gateway URL, ws:// or wss://"),
        FlagSpec(long: "token", short: "t", value: .text, placeholder: "TOKEN",
                 environment: ["OPENCLAW_GATEWAY_TOKEN", "CLAWDBOT_GATEWAY_TOKEN"],
                 help: "shared gateway token"),
        FlagSpec(long: "token-file", value: .file, placeholder: "PATH",
                 help: "read the token from a file (- = stdin); keeps it out of ps"),
        FlagSpec(long: "password", value: .text, placeholder: "PASSWORD",
                 environment: ["OPENCLAW_GATEWAY_PASSWORD"], help: "gateway password"),
        FlagSpec(long: "session", short: "s", value: .text, placeholder: "KEY",
                 help: "session key (default main; for watch: only this session's events)"),
        FlagSpec(long: "timeout", value: .seconds(0...31_536_000), placeholder: "SECONDS",
                 help: "limit for the whole command, 0 = none (default: none for watch, 600 for send, 30 otherwise)"),
        FlagSpec(long: "connect-timeout", value: .seconds(0.001...3600), placeholder: "SECONDS",
                 help: "limit for socket, TLS and handshake (default 10)"),
        FlagSpec(long: "output", short: "o", value: .choice(["ndjson", "text"]), placeholder: "FORMAT",
                 help: "output format: ndjson (default) or text"),
        FlagSpec(long: "raw", help: "also print the handshake frames and every other frame received (ndjson only)"),
        FlagSpec(long: "trace", help: "write every frame sent and received to stderr as NDJSON, secrets redacted"),
        FlagSpec(long: "quiet", short: "q", help: "no diagnostics on stderr except the final error"),
        FlagSpec(long: "state-dir", value: .directory, placeholder: "DIR", environment: ["OPENCLAW_STATE_DIR"],
                 help: "OpenClaw state directory (default ~/.openclaw)"),
        FlagSpec(long: "config", value: .file, placeholder: "PATH", environment: ["OPENCLAW_CONFIG_PATH"],
                 help: "OpenClaw config file, JSON5 (default <state>/openclaw.json)"),
        FlagSpec(long: "no-device", help: "connect without a device identity (token only; the gateway may grant no scopes)"),
        FlagSpec(long: "scope", value: .text, placeholder: "SCOPE", repeatable: true,
                 help: "request this operator scope (repeatable; default operator.read and operator.write)"),
        FlagSpec(long: "tls-fingerprint", value: .text, placeholder: "SHA256",
                 help: "pin the gateway certificate by its SHA-256 fingerprint"),
        FlagSpec(long: "cacert", value: .file, placeholder: "PATH", help: "trust this PEM CA bundle for wss://"),
        FlagSpec(long: "help", short: "h", help: "show help"),
        FlagSpec(long: "version", short: "V", help: "print the version"),
    ]

    static let commands: [CommandSpec] = [
        CommandSpec(
            name: "history", summary: "print a session's transcript",
            details: "Calls chat.history for the session. ndjson prints the res frame; text prints one line per message as `role: text`.",
            flags: [
                FlagSpec(long: "limit", short: "n", value: .integer(1...1000), placeholder: "N",
                         help: "the last N messages (1-1000, default 200)"),
            ]),
        CommandSpec(
            name: "send", arguments: "[MESSAGE...]", summary: "send a message and stream the reply",
            details: "The message is the arguments joined by spaces; `-`, or no argument with stdin not a terminal, reads stdin. ndjson prints the chat.send res frame and then every chat event of the run until it ends; text streams the reply. SIGINT/SIGTERM abort the run first.",
            flags: [
                FlagSpec(long: "file", short: "f", value: .file, placeholder: "PATH", help: "read the message from a file"),
                FlagSpec(long: "thinking", value: .text, placeholder: "LEVEL", help: "thinking level for this turn (e.g. low, high)"),
                FlagSpec(long: "deliver", help: "also deliver the reply to the session's last external channel"),
                FlagSpec(long: "attach", value: .file, placeholder: "PATH", repeatable: true,
                         help: "attach a file (repeatable; sent base64 with its MIME type)"),
                FlagSpec(long: "idempotency-key", value: .text, placeholder: "KEY",
                         help: "idempotency key and run id (default: a fresh UUID); a stable key makes retries safe"),
                FlagSpec(long: "no-wait", help: "print the ack and exit without waiting for the reply"),
                FlagSpec(long: "agent-events", help: "also print the run's agent events"),
            ]),
        CommandSpec(
            name: "abort", summary: "abort the session's active run(s)",
            details: "Calls chat.abort; without --run it aborts every active run of the session.",
            flags: [
                FlagSpec(long: "run", value: .text, placeholder: "ID", help: "abort only this run"),
            ]),
        CommandSpec(
            name: "watch", summary: "stream gateway events until stopped",
            details: "Prints every event frame except tick, reconnecting with backoff when the link drops. Reconnects and sequence gaps are reported on stderr.",
            flags: [
                FlagSpec(long: "event", short: "e", value: .text, placeholder: "NAME", repeatable: true,
                         help: "only events with this name (repeatable; '*' for all, including tick)"),
                FlagSpec(long: "run", value: .text, placeholder: "ID", help: "only chat/agent events of this run"),
                FlagSpec(long: "count", value: .integer(1...Int.max), placeholder: "N", help: "exit after N printed events"),
                FlagSpec(long: "until-final", help: "exit after the first run that ends (final, aborted or error)"),
                FlagSpec(long: "max-retries", value: .integer(0...Int.max), placeholder: "N",
                         help: "give up after N failed reconnects in a row (default unlimited)"),
                FlagSpec(long: "no-reconnect", help: "exit 3 when the connection drops instead of reconnecting"),
                FlagSpec(long: "backoff-base", value: .seconds(0.001...3600), placeholder: "SECONDS",
                         help: "first reconnect delay (default 1)"),
                FlagSpec(long: "backoff-max", value: .seconds(0.001...3600), placeholder: "SECONDS",
                         help: "longest reconnect delay (default 30)"),
                FlagSpec(long: "client-events", help: "also print {\"type\":\"client\",…} lines for reconnects and gaps"),
                FlagSpec(long: "resync", help: "after each reconnect, print a fresh chat.history res for the session"),
            ]),
        CommandSpec(
            name: "call", arguments: "METHOD [PARAMS]", summary: "call any gateway method with JSON params",
            details: "PARAMS is a JSON object (an argument, or - for stdin; default {}). Prints the res frame.",
            flags: [
                FlagSpec(long: "expect-final", help: "wait past an `accepted` ack for the final res"),
                FlagSpec(long: "batch", help: "read {\"method\":…,\"params\":…} lines from stdin, pipeline them, print each res"),
            ]),
        CommandSpec(
            name: "completion", arguments: "bash|zsh|fish", summary: "print a shell completion script"),
        CommandSpec(name: "help", arguments: "[COMMAND]", summary: "show help"),
        CommandSpec(name: "version", summary: "print the version"),
        CommandSpec(name: "__man", summary: "print the man page in roff; `make man` writes man/openclaw.1", hidden: true),
    ]

    static func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The flags valid for `command`: its own, then the global ones.
    static func flags(for command: CommandSpec?) -> [FlagSpec] {
        (command?.flags ?? []) + globalFlags
    }

    /// Every flag of every command: decides which tokens take a value before the command is known.
    static let allFlags: [FlagSpec] = globalFlags + commands.flatMap(\.flags)
}
