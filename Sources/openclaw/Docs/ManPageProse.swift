/// The parts of the man page the command table cannot say: description, environment variables
/// that are not flag defaults, files, exit statuses, examples. Backticks mark literal text.
enum ManPageProse {
    /// The page's date in `.TH`: a constant, so regenerating the page changes nothing.
    static let date = "2026-11-22"

    static let name = "a scriptable client for the OpenClaw Gateway"

    static let description: [String] = [
        "openclaw talks to an OpenClaw Gateway over its WebSocket protocol: it prints a session's transcript, sends a message and streams the reply, aborts runs, watches the gateway's events and calls any gateway method. It is made for scripts, cron jobs and pipelines.",
        "Standard output carries data only. In the default `ndjson` format every line is one compact JSON object, a gateway frame exactly as the gateway sent it, flushed as soon as it is complete, so jq(1) and similar tools can follow it live. The `text` format prints lines for people. Diagnostics and the final error (`openclaw: error: ...`) go to standard error. Tokens, passwords, device tokens and private keys never appear in either.",
        "Options may come before or after the command; `--` ends the options; `--flag=value` and `--flag value` both work, and short flags may be bundled (`-qs main`).",
        "The gateway URL comes from the flags, then the environment, then the config file. Credentials given as flags are used alone; an explicit `--url` never borrows credentials from the config file; otherwise, in local mode `gateway.auth.token` comes before OPENCLAW_GATEWAY_TOKEN and `gateway.remote.token`, in remote mode `gateway.remote.token` comes first. Config credentials may be secret refs `{source, provider, id}` resolved through `secrets.providers` (`env`, `file`, `exec`, `store`) only when they are the credential used. Plain `ws://` to a host that is not loopback is refused unless OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1. On first use openclaw creates a device identity in the state directory; device tokens the gateway issues are kept there and reused.",
        "Commands this client does not have run the official OpenClaw CLI (`OPENCLAW_OFFICIAL_CLI`, else the first other `openclaw` on PATH) in its place, with the same arguments. Its global options are accepted in every form and place it takes them, so tools written for it work unchanged: `--log-level LEVEL` (`silent`, `fatal` and `error` quiet diagnostics as `--quiet` does; `warn`, `info`, `debug` and `trace` change nothing; any other value is a usage error), `--no-color`, `--profile NAME`, `--dev`, `-V`, `--version`, and before the command word `-v` (the version) and `--update` (its `update`). `--container NAME` runs the whole command line through the official CLI, which runs it inside that container.",
        "With `gateway.remote.transport` `ssh` in the config, each connection goes through the system's own ssh(1) (`ssh -N -L`, found in system directories only). Its standard error is read for as long as it runs (the last 64 KiB are kept for messages), so a chatty `LogLevel` in the user's ssh config never stalls it, and it is started through setpriv(1) `--pdeathsig`, so it ends with openclaw even when openclaw is killed with SIGKILL (without util-linux setpriv 2.33 or later it starts without that signal).",
        "A write to a closed standard output (`openclaw watch | head -1`) ends the program quietly.",
        "Frames the client does not understand (a message that is not JSON, JSON that is not an object, an object of an unknown `type`, a `res` to no request of ours) are skipped: standard error says so once per kind and gives a count at exit, and `--raw` still prints the ones that are JSON objects. `--strict` makes them an error (status 6) instead. Events with unknown names are printed like any other.",
        "Every command watches the link: no frame for two tick intervals (from `hello-ok`) closes the connection (4000) as lost, status 3, and a WebSocket ping goes out every 15 seconds. The gateway's own pings are answered at any moment, also while standard output is blocked by a slow reader (up to 1 MiB is then read ahead). `watch` reconnects with a backoff that only grows while connections drop within two ticks of `hello-ok`, and with `--client-events` prints `connected`, `disconnected`, `connect-failed`, `reconnected`, `gap` and `gave-up` lines.",
        "A gateway that is suspended, draining for a restart or starting (`UNAVAILABLE` with `details.reason` `gateway-suspending`, `gateway-restarting` or `startup-sidecars`, any retryable `UNAVAILABLE`, a connect closed with 1013) is asked again after its `retryAfterMs` (1 s unless it says), requests with the same idempotency key, while `--timeout` allows; each try has its own `--connect-timeout`, and each wait is one note on standard error (`watch` waits quietly). `--retry-connrefused` waits the same way for a gateway that is not listening yet. An operator the gateway's access policy grants nothing (`OPERATOR_ACCESS_DENIED`) keeps its stored credentials and ends with status 4; `watch` keeps asking. `--wait-for-pairing` makes an unpaired device wait for the administrator's decision: on the open connection where the gateway keeps it open (`device-pairing-wait`), otherwise, as with the October 2026 gateway, which does so only for its Control UI, by connecting again until the request is approved.",
        "`send -o text` into a pipe or file prints exactly the final reply text once, followed by one newline; `--stream` streams it append-only instead, and on a terminal it streams live and redraws when the gateway replaces the text. A status line (`thinking…`, `running NAME…`) shows on a terminal stderr only. A run that fails or is aborted prints nothing on standard output and names its `errorKind` or `stopReason` in the error line.",
        "A stop command sent with `send` (`/stop`, `stop`, `abort`, ...) starts no run: the gateway aborts the session's runs and `send` prints its acknowledgement (text: `aborted N run(s)`) and exits 0.",
    ]

    /// Variables that are not the default of a flag (those come from the table), and legacy names
    /// the table does not list.
    static let environment: [(name: String, text: String)] = [
        ("OPENCLAW_GATEWAY_PORT", "Port of the local gateway when no URL is given (default 18789; 19001 for the `dev` profile)."),
        ("OPENCLAW_HANDSHAKE_TIMEOUT_MS", "Milliseconds (digits only; anything else is ignored; default 15000) to wait for the WebSocket upgrade answer and, after it, for `connect.challenge`. When set, the default `--connect-timeout` grows to twice this value if that is longer than 10 s, and `gateway call` without `--timeout` waits at least this long."),
        ("OPENCLAW_HOME", "The home directory that `~` means in every path, including the default state directory `~/.openclaw` (default: HOME)."),
        ("OPENCLAW_ALLOW_INSECURE_PRIVATE_WS", "Set to `1` to allow plain `ws://` to private-network addresses; loopback is always allowed, public hosts need `wss://`."),
        ("HTTPS_PROXY, HTTP_PROXY, ALL_PROXY", "A forward proxy for `wss://` gateways, for `ws://` gateways, and for either when its own is unset (lower-case names are read first, as curl reads them): `http://[USER:PASSWORD@]HOST:PORT` (a `CONNECT` tunnel; TLS to the gateway inside it), `https://` (the same inside TLS to the proxy), `socks5://` (this client resolves the gateway's name) or `socks5h://` (the proxy resolves it). A loopback gateway is never proxied this way. Ignored while OpenClaw's `proxy.enabled` is true."),
        ("NO_PROXY", "Comma-separated hosts reached directly: names (and their subdomains), addresses, IPv4 ranges (`10.0.0.0/8`), `HOST:PORT`, or `*` for all."),
        ("OPENCLAW_PROXY_URL", "The proxy URL when the config file's `proxy.enabled` is true and `proxy.proxyUrl` is unset (OpenClaw's managed proxy). Enabled with neither is an error: no connection is made directly."),
        ("OPENCLAW_CONTAINER", "A container name, as `--container`, for `gateway call` and the official CLI's commands: those run through the official CLI inside that container. This client's own commands ignore it, and so does everything when OPENCLAW_CLI_CONTAINER_BYPASS=1 (as inside the container)."),
        ("OPENCLAW_SHELL", "When `exec` (set inside an agent's exec tool), `send` refuses before connecting, so an agent cannot message itself."),
        ("TMPDIR", "Where the device identity lock directory `openclaw-UID` is (then TMP, TEMP, else /tmp, as the official CLI reads them), and `history --all` keeps its temporary file (TMPDIR, else /tmp)."),
    ]

    static let files: [(path: String, text: String)] = [
        ("~/.openclaw/", "The state directory (`--state-dir`, OPENCLAW_STATE_DIR; `~/.openclaw-NAME` for `--profile NAME`, OPENCLAW_PROFILE or `--dev`). Without a profile, when it does not exist, an existing legacy `~/.clawdbot`, `~/.moldbot` or `~/.moltbot` is used. CLAWDBOT_* variables are not read."),
        ("~/.openclaw/openclaw.json", "The OpenClaw config file, JSON5 (`--config`, OPENCLAW_CONFIG_PATH): gateway URL, credentials and TLS fingerprint when no flag or variable gives them."),
        ("~/.openclaw/state/openclaw.sqlite", "The official OpenClaw state database: this device's Ed25519 identity (table `device_identities`, row `primary`) and the device tokens gateways issue in `hello-ok` (`device_auth_tokens`; `gateway_origin_device_tokens` for other targets, when the official CLI has made that table), reused on later connections. On a machine without OpenClaw state it is created on first use unless `--no-device` is given, as an OpenClaw app creates it: those two tables in the official layout, `user_version` 0, directory 0700, file 0600; the official CLI accepts it as it is."),
        ("~/.openclaw/tmp/openclaw-UID/, $TMPDIR/openclaw-UID/", "The official tools' device identity lock (`device-identity.HASH.lock.sqlite`, empty, mode 0600, directory 0700), held while an identity is created so that concurrent creators agree on one."),
        ("~/.openclaw/identity/device.json", "In an install older than the state database (this file or the next one, no database): this device's Ed25519 identity in the official OpenClaw format, mode 0600, created on first use if missing. Never created beside or instead of the database."),
        ("~/.openclaw/identity/device-auth.json", "In the same older install: device tokens issued by gateways in `hello-ok`, mode 0600, reused on later connections."),
    ]

    static let exitStatus: [(status: ExitStatus, text: String)] = [
        (.success, "Success."),
        (.gatewayError, "The gateway answered with an error (`ok:false`), or the run ended in `error` or `aborted`."),
        (.usage, "Usage error: unknown flag, bad value, missing argument."),
        (.connection, "Cannot connect, or the connection was lost, or the gateway was still suspended, restarting or starting when `--timeout` ran out (worth retrying)."),
        (.authentication, "Authentication or pairing failed (with `--wait-for-pairing`: the request was rejected, expired or superseded, or not approved before `--timeout`), or the gateway's access policy grants this operator nothing (`OPERATOR_ACCESS_DENIED`: an administrator must grant access); retrying will not help until someone acts."),
        (.timeout, "Timed out (`send` and `agent` abort their run first, as they do when their reader goes away)."),
        (.protocolError, "Protocol error: broken WebSocket framing, unsupported protocol version; with `--strict`, any frame the client does not understand."),
        (.interrupted, "Interrupted by SIGINT (`send` and `agent` abort their run first); the process ends by the signal itself, so a calling script stops too."),
        (.terminated, "Terminated by SIGTERM (`send` and `agent` abort their run first); ended by the signal, as SIGINT."),
    ]

    static let examples: [(text: String, code: [String])] = [
        ("Send a message and print only the final reply text:",
         [#"openclaw send "hi" | jq -r 'select(.event=="chat" and .payload.state=="final") | .payload.message.content[0].text'"#]),
        ("The same, streamed as plain text:", ["openclaw send -o text \"what changed today?\""]),
        ("Print the main session's transcript, one `role: text` line per message:", ["openclaw history -o text"]),
        ("The roles of the last 20 messages of another session:",
         ["openclaw history -s agent:main:work -n 20 | jq -r '.payload.messages[].role'"]),
        ("Follow finished replies on every session, reconnecting as needed:",
         [#"openclaw watch --event chat | jq -r 'select(.payload.state=="final") | "\(.payload.sessionKey): \(.payload.message.content[0].text)"'"#]),
        ("Call any method and pretty-print its payload:", ["openclaw call health | jq .payload"]),
        ("A crontab line that sends a report every morning; the idempotency key makes a retried run harmless and timeout(1) bounds it:",
         [#"0 8 * * * timeout 120 openclaw send --idempotency-key daily-$(date +\%F) "morning report" -q >/dev/null"#]),
        ("Keep the token out of the process list and the shell history:",
         ["openclaw --token-file ~/.config/openclaw/token history"]),
        ("Install the bash completion for the current user:",
         ["openclaw completion bash > ~/.local/share/bash-completion/completions/openclaw"]),
    ]

    static let seeAlso = [("jq", 1), ("timeout", 1), ("crontab", 5), ("ssh", 1), ("setpriv", 1)]
}
