/// The typed result of parsing: one value per command, filled by the command table's bindings.
/// Commands read fields, never flag names, so renaming a flag cannot silently break a reader.

enum OutputFormat: String, CaseIterable, Sendable { case ndjson, text }

/// Flags every command accepts.
struct GlobalOptions: Equatable, Sendable {
    var url: String?
    var token: String?
    var tokenFile: String?
    var password: String?
    /// nil: the default session (`main`); for `watch`, every session.
    var session: String?
    var timeout: Double?
    var connectTimeout: Double?
    /// `--retry-connrefused`: a gateway not listening yet is asked again within `--timeout`.
    var retryConnectionRefused = false
    /// `--wait-for-pairing`: an unpaired device waits for the decision within `--timeout`.
    var waitForPairing = false
    var output: OutputFormat = .ndjson
    var raw = false
    var trace = false
    var quiet = false
    /// Exit 6 on a frame the client does not understand instead of skipping it.
    var strict = false
    var stateDirectory: String?
    var config: String?
    /// `--profile NAME`.
    var profile: String?
    /// `--dev`: the profile `dev`.
    var dev = false
    /// `--log-level LEVEL`, the official CLI's (`OfficialLogLevel`): silent, fatal and error quiet diagnostics.
    var logLevel: String?
    /// `--no-color`: no ANSI colour, as `NO_COLOR`.
    var noColor = false
    /// `--container NAME`: the official CLI runs the command inside that container (`OfficialCLI`).
    var container: String?
    var noDevice = false
    var scopes: [String] = []
    var tlsFingerprint: String?
    var caBundle: String?
    var help = false
    var version = false

    /// `--quiet`, or a `--log-level` that keeps diagnostics off the console.
    var quietsDiagnostics: Bool { quiet || OfficialLogLevel.quiets(logLevel) }
}

/// The official CLI's log levels (openclaw/openclaw `src/logging/levels.ts`), most quiet first.
enum OfficialLogLevel {
    static let all = ["silent", "fatal", "error", "warn", "info", "debug", "trace"]
    /// The levels that show no warning or note: ours are diagnostics of that kind, so these quiet
    /// them as `--quiet` does (the final error line still shows). The others change nothing.
    static let quiet = ["silent", "fatal", "error"]  // not a Set: see Environment (start-up)

    static func quiets(_ level: String?) -> Bool { level.map(quiet.contains) ?? false }
}

struct HistoryOptions: Equatable, Sendable {
    var limit: Int?
    /// Every page (`--limit` is then the page size).
    var all = false
}

struct SendOptions: Equatable, Sendable {
    var file: String?
    var thinking: String?
    var deliver = false
    var attachments: [String] = []
    var idempotencyKey: String?
    var noWait = false
    var agentEvents = false
    /// Text mode into a pipe: append-only streaming instead of the final text once.
    var stream = false
    /// `queueMode` of chat.send: what the gateway does with a message while a run is active.
    var queueMode: String?
}

struct AbortOptions: Equatable, Sendable {
    var run: String?
}

struct WatchOptions: Equatable, Sendable {
    var events: [String] = []
    var run: String?
    var count: Int?
    var untilFinal = false
    var maxRetries: Int?
    var noReconnect = false
    var backoffBase: Double?
    var backoffMax: Double?
    var clientEvents = false
    var resync = false
    /// `sessions.subscribe`: `sessions.changed` events.
    var sessions = false
    /// `sessions.messages.subscribe` for `--session`: `session.message` events.
    var messages = false
}

struct CallOptions: Equatable, Sendable {
    var expectFinal = false
    var batch = false
}

struct CompletionOptions: Equatable, Sendable {
    var shell: String? = nil
}

/// `gateway call`: the official CLI's spellings (`--timeout` in milliseconds lands in `global.timeout`).
struct GatewayCallOptions: Equatable, Sendable {
    var params: String? = nil
    /// Milliseconds as typed; checked by the command, in the official CLI's words.
    var timeout: String? = nil
    var json = false
    var expectFinal = false
}

/// `agent`: the official CLI's one agent turn (`openclaw agent --message …`), its spellings.
struct AgentOptions: Equatable, Sendable {
    var message: String?
    var messageFile: String?
    var to: String?
    var sessionKey: String?
    var sessionId: String?
    var agent: String?
    var model: String?
    var thinking: String?
    /// `on` or `off`: the official CLI's local verbosity; never sent.
    var verbose: String?
    var channel: String?
    var replyTo: String?
    var replyChannel: String?
    var replyAccount: String?
    var local = false
    var deliver = false
    var json = false
    /// NDJSON of the turn's events as they arrive, then the `--json` object on one line.
    var jsonStream = false
    /// Seconds as typed (0 = none); checked by the command in the official CLI's words.
    var timeout: String?
}

/// The official CLI's shared gateway flags of `logs`, `system`, `cron` and `health`.
struct OfficialGatewayOptions: Equatable, Sendable {
    /// Milliseconds as typed; checked by the command.
    var timeout: String?
    var port: Int?
    var expectFinal = false
    var json = false
    var verbose = false
}

/// `sessions` (list): the official flags.
struct SessionsOptions: Equatable, Sendable {
    var agent: String?
    var allAgents = false
    var store: String?
    /// Minutes as typed.
    var active: String?
    /// A count or `all`, as typed.
    var limit: String?
}

/// `logs`: the official flags (values as typed, checked by the command).
struct LogsOptions: Equatable, Sendable {
    var limit: String?
    var maxBytes: String?
    var interval: String?
    var follow = false
    var plain = false
    var utc = false
    var localTime = false
}

/// `system event`: the official flags.
struct SystemEventOptions: Equatable, Sendable {
    var text: String?
    var mode: String?
    var sessionKey: String?
}

/// `cron` / `automations`: the flags of `list`, `runs` and `run`.
struct CronOptions: Equatable, Sendable {
    var all = false
    var agent: String?
    var id: String?
    var runId: String?
    var limit: String?
    var due = false
    var wait = false
    var waitTimeout: String?
    var pollInterval: String?
}

/// Everything the command line said; only the running command's part is ever non-default.
struct Options: Equatable, Sendable {
    var global = GlobalOptions()
    var history = HistoryOptions()
    var send = SendOptions()
    var abort = AbortOptions()
    var watch = WatchOptions()
    var call = CallOptions()
    var gatewayCall = GatewayCallOptions()
    var completion = CompletionOptions()
    var agent = AgentOptions()
    var official = OfficialGatewayOptions()
    var sessions = SessionsOptions()
    var logs = LogsOptions()
    var systemEvent = SystemEventOptions()
    var cron = CronOptions()
}
