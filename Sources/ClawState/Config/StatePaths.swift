@_spi(Engine) import ClawSystem
/// Where an OpenClaw install keeps its state and config, resolved exactly as the official CLI does
/// (openclaw/openclaw `src/config/paths.ts`, `src/infra/home-dir.ts`, `src/cli/profile.ts`):
/// - home: `OPENCLAW_HOME` (a leading `~` means `$HOME`), else `$HOME`, else the password database, else the cwd;
///   `~` in every other path means this home, so `OPENCLAW_HOME` moves `~/.openclaw` too;
/// - profile: `--profile NAME` (`--dev` is `dev`), else `OPENCLAW_PROFILE`; `default` is no suffix;
/// - state dir: `--state-dir`, `OPENCLAW_STATE_DIR`, then with a profile `<home>/.openclaw-NAME`;
///   without one `<home>/.openclaw` if it exists, else the first existing legacy dir (`.clawdbot`,
///   `.moldbot`, `.moltbot`), else `<home>/.openclaw`;
/// - config: `--config`, `OPENCLAW_CONFIG_PATH`, then with a profile `<state>/openclaw.json`; without one
///   the first existing of `openclaw.json`, `clawdbot.json`, `moldbot.json`, `moltbot.json` in the state
///   dir, else `openclaw.json`.
/// The older `CLAWDBOT_*` variables are not read (the official CLI ignores them since summer 2026).
@_spi(Engine) public enum StatePaths {
    static let stateDirectoryName = ".openclaw"
    static let legacyStateDirectoryNames = [".clawdbot", ".moldbot", ".moltbot"]
    static let configFileName = "openclaw.json"
    static let legacyConfigFileNames = ["clawdbot.json", "moldbot.json", "moltbot.json"]

    @_spi(Engine) public static func homeDirectory(environment: Environment) -> String {
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
    @_spi(Engine) public static func expandUser(_ path: String, environment: Environment) -> String {
        let trimmed = TextTrim.trimmed(path)
        if trimmed.isEmpty { return trimmed }
        let cwd = FileSystem.currentDirectory()
        if trimmed == "~" || trimmed.hasPrefix("~/") {
            return Paths.resolve(homeDirectory(environment: environment) + trimmed.dropFirst(), currentDirectory: cwd)
        }
        return Paths.resolve(trimmed, currentDirectory: cwd)
    }

    /// `^[a-z0-9][a-z0-9_-]{0,63}$`, any case (the official `isValidProfileName`).
    @_spi(Engine) public static func isValidProfileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let isAlphanumeric = { (c: UInt8) in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
        guard let first = bytes.first, isAlphanumeric(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// The profile in use: the flag (`--profile`, `--dev` as `dev`), else `OPENCLAW_PROFILE`; nil for none.
    @_spi(Engine) public static func profile(flag: String?, environment: Environment) throws(ConfigError) -> String? {
        let (name, source): (String, SettingSource)
        if let flag = TextTrim.nonEmpty(flag) {
            (name, source) = (flag, .option(.profile))
        } else if let value = environment.trimmed("OPENCLAW_PROFILE") {
            (name, source) = (value, .environment("OPENCLAW_PROFILE"))
        } else {
            return nil
        }
        guard isValidProfileName(name) else { throw .invalidProfile(name: name, source: source) }
        return name
    }

    /// `<home>/.openclaw-NAME`; the profile `default` (any case) is `<home>/.openclaw`.
    @_spi(Engine) public static func profileStateDirectory(_ profile: String, environment: Environment) -> String {
        let suffix = profile.lowercased() == "default" ? "" : "-" + profile
        return Paths.join(homeDirectory(environment: environment), stateDirectoryName + suffix)
    }

    /// The state directory and a label saying where it came from.
    @_spi(Engine) public static func stateDirectory(
        flag: String?, environment: Environment, profile: String? = nil
    ) -> (path: String, source: SettingSource) {
        if let flag = TextTrim.nonEmpty(flag) {
            return (expandUser(flag, environment: environment), .option(.stateDirectory))
        }
        if let value = environment.trimmed("OPENCLAW_STATE_DIR") {
            return (expandUser(value, environment: environment), .environment("OPENCLAW_STATE_DIR"))
        }
        if let profile {
            return (profileStateDirectory(profile, environment: environment), .profile(profile))
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
    @_spi(Engine) public static func configPath(
        flag: String?, stateDirectory: String, environment: Environment, profile: String? = nil
    ) -> (path: String, source: SettingSource) {
        if let flag = TextTrim.nonEmpty(flag) {
            return (expandUser(flag, environment: environment), .option(.configPath))
        }
        if let value = environment.trimmed("OPENCLAW_CONFIG_PATH") {
            return (expandUser(value, environment: environment), .environment("OPENCLAW_CONFIG_PATH"))
        }
        if let profile {
            // The official CLI sets OPENCLAW_CONFIG_PATH to this for a profile: no legacy names.
            return (Paths.join(stateDirectory, configFileName), .profile(profile))
        }
        for name in [configFileName] + legacyConfigFileNames {
            let candidate = Paths.join(stateDirectory, name)
            if FileSystem.exists(candidate) { return (candidate, .stateDirectory) }
        }
        return (Paths.join(stateDirectory, configFileName), .stateDirectory)
    }
}
