/// The official OpenClaw CLI's top-level commands (as of its September 2026 releases), kept beside
/// our command table: `help` lists them, the completion scripts offer them, and a test compares the
/// list with `openclaw help` of an official CLI when one is installed. Words both CLIs have
/// (`completion`, `help`) stay ours and are not listed; `gateway` is listed because only its `call`
/// is ours.
enum OfficialCommands {
    static let names: [String] = [
        "acp", "agent", "agents", "approvals", "auth", "automations", "backup", "channels", "chat", "commitments", "config",
        "configure", "cron", "daemon", "dashboard", "devices", "directory", "dns", "docs", "doctor",
        "exec-approvals", "gateway", "health", "hooks", "infer", "logs", "mcp", "message", "migrate", "models",
        "node", "nodes", "onboard", "pairing", "plugins", "profile", "qr", "reset", "sandbox", "secrets",
        "security", "sessions", "setup", "skills", "status", "system", "tasks", "tui", "uninstall", "update",
        "webhooks",
    ]

    static func contains(_ word: String) -> Bool { names.contains(word) }
}
