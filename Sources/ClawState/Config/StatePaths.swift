import ClawSystem
/// Where an OpenClaw install keeps its state and config, resolved exactly as the official CLI does
/// (openclaw/openclaw `src/config/paths.ts`, `src/infra/home-dir.ts`):
/// - home: `OPENCLAW_HOME` (a leading `~` means `$HOME`), else `$HOME`, else the password database, else the cwd;
///   `~` in every other path means this home, so `OPENCLAW_HOME` moves `~/.openclaw` too;
/// - state dir: `--state-dir`, `OPENCLAW_STATE_DIR`, `CLAWDBOT_STATE_DIR`, then `<home>/.openclaw` if it exists,
///   else the first existing legacy dir (`.clawdbot`, `.moldbot`, `.moltbot`), else `<home>/.openclaw`;
/// - config: `--config`, `OPENCLAW_CONFIG_PATH`, `CLAWDBOT_CONFIG_PATH`, then the first existing of
///   `openclaw.json`, `clawdbot.json`, `moldbot.json`, `moltbot.json` in the state dir, else `openclaw.json`.
public enum StatePaths {
    static let stateDirectoryName = ".openclaw"
    static let legacyStateDirectoryNames = [".clawdbot", ".moldbot", ".moltbot"]
    static let configFileName = "openclaw.json"
    static let legacyConfigFileNames = ["clawdbot.json", "moldbot.json", "moltbot.json"]

    public static func homeDirectory(environment: Environment) -> String {
        let cwd = FileSystem.currentDirectory()
        if let explicit = environment.trimmed("OPENCLAW_HOME") {
            if explicit == "~" || explicit.hasPrefix("~/") {
                guard let fallback = environment.trimmed("HOME") ?? FileSystem.passwordDatabaseHome() else {
                    return Paths.resolve(".", currentDirectory: cwd)
                }
                return Paths.resolve(fallback + explicit.dropFirst(), currentDirectory: cwd)
            }
            return Paths.resolve(explicit, currentDirectory: cwd)
        }
        if let home = environment.trimmed("HOME") ?? FileSystem.passwordDatabaseHome() {
            return Paths.resolve(home, currentDirectory: cwd)
        }
        return Paths.resolve(".", currentDirectory: cwd)
    }

    /// A user-supplied path made absolute: trimmed, `~` expanded to the OpenClaw home, resolved against the cwd.
    public static func expandUser(_ path: String, environment: Environment) -> String {
        let trimmed = TextTrim.trimmed(path)
        if trimmed.isEmpty { return trimmed }
        let cwd = FileSystem.currentDirectory()
        if trimmed == "~" || trimmed.hasPrefix("~/") {
            return Paths.resolve(homeDirectory(environment: environment) + trimmed.dropFirst(), currentDirectory: cwd)
        }
        return Paths.resolve(trimmed, currentDirectory: cwd)
    }

    /// The state directory and a label saying where it came from.
    public static func stateDirectory(flag: String?, environment: Environment) -> (path: String, source: SettingSource) {
        if let flag = TextTrim.nonEmpty(flag) {
            return (expandUser(flag, environment: environment), .option(.stateDirectory))
        }
        if let (name, value) = environment.firstTrimmed("OPENCLAW_STATE_DIR", "CLAWDBOT_STATE_DIR") {
            return (expandUser(value, environment: environment), .environment(name))
        }
        let home = homeDirectory(environment: environment)
        let current = Paths.join(home, stateDirectoryName)
        if FileSystem.exists(current) { return (current, .builtInDefault) }
        for name in legacyStateDirectoryNames {
            let legacy = Paths.join(home, name)
            if FileSystem.exists(legacy) { return (legacy, .legacyDefault) }
        }
        return (current, .builtInDefault)
    }

    /// The config file path and a label saying where it came from.
    public static func configPath(
        flag: String?, stateDirectory: String, environment: Environment
    ) -> (path: String, source: SettingSource) {
        if let flag = TextTrim.nonEmpty(flag) {
            return (expandUser(flag, environment: environment), .option(.configPath))
        }
        if let (name, value) = environment.firstTrimmed("OPENCLAW_CONFIG_PATH", "CLAWDBOT_CONFIG_PATH") {
            return (expandUser(value, environment: environment), .environment(name))
        }
        for name in [configFileName] + legacyConfigFileNames {
            let candidate = Paths.join(stateDirectory, name)
            if FileSystem.exists(candidate) { return (candidate, .stateDirectory) }
        }
        return (Paths.join(stateDirectory, configFileName), .stateDirectory)
    }
}
