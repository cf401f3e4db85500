import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawState

@Suite struct ConfigPathTests {
    @Test func stateDirectoryPrecedence() {
        let dir = ConfigTestDirectory()
        let home = dir.sub("home")
        dir.mkdir("home")
        let base = ["HOME": home]
        func resolve(_ flag: String?, _ extra: [String: String]) -> (String, String) {
            let result = StatePaths.stateDirectory(
                flag: flag, environment: Environment(base.merging(extra) { $1 }))
            return (result.path, sourceLabel(result.source))
        }
        // Default when nothing exists: ~/.openclaw.
        #expect(resolve(nil, [:]) == (home + "/.openclaw", "default"))
        // Flag beats OPENCLAW_STATE_DIR; blank values are ignored; CLAWDBOT_STATE_DIR is not read at all.
        let both = ["OPENCLAW_STATE_DIR": "/srv/a", "CLAWDBOT_STATE_DIR": "/srv/b"]
        #expect(resolve("/srv/flag", both) == ("/srv/flag", "--state-directory"))
        #expect(resolve(nil, both) == ("/srv/a", "OPENCLAW_STATE_DIR"))
        #expect(resolve(nil, ["OPENCLAW_STATE_DIR": "  ", "CLAWDBOT_STATE_DIR": "/srv/b"]) == (home + "/.openclaw", "default"))
        #expect(resolve(nil, ["CLAWDBOT_STATE_DIR": "/srv/b"]) == (home + "/.openclaw", "default"))
        // `~` expands to HOME; relative segments are normalised.
        #expect(resolve("~/x/../state", [:]).0 == home + "/state")
        #expect(resolve(nil, ["OPENCLAW_STATE_DIR": "~/s"]).0 == home + "/s")
    }

    @Test func legacyStateDirectoryOnlyWhenItIsTheOneThatExists() {
        let dir = ConfigTestDirectory()
        let home = dir.sub("home")
        let env = Environment(["HOME": home])
        dir.mkdir("home/.clawdbot")
        #expect(StatePaths.stateDirectory(flag: nil, environment: env).path == home + "/.clawdbot")
        dir.mkdir("home/.openclaw")
        #expect(StatePaths.stateDirectory(flag: nil, environment: env).path == home + "/.openclaw")
    }

    @Test func openclawHomeIsTheHomeThatContainsDotOpenclaw() {
        let dir = ConfigTestDirectory()
        let env = Environment(["HOME": dir.sub("real"), "OPENCLAW_HOME": dir.sub("alt")])
        #expect(StatePaths.homeDirectory(environment: env) == dir.sub("alt"))
        #expect(StatePaths.stateDirectory(flag: nil, environment: env).path == dir.sub("alt") + "/.openclaw")
        // `~` in other paths means OPENCLAW_HOME too; `~` inside OPENCLAW_HOME means HOME.
        #expect(StatePaths.expandUser("~/cfg.json", environment: env) == dir.sub("alt") + "/cfg.json")
        let tilde = Environment(["HOME": dir.sub("real"), "OPENCLAW_HOME": "~/oc"])
        #expect(StatePaths.homeDirectory(environment: tilde) == dir.sub("real") + "/oc")
    }

    @Test func configPathPrecedenceAndLegacyFileName() {
        let dir = ConfigTestDirectory()
        let state = dir.sub("state")
        dir.mkdir("state")
        func resolve(_ flag: String?, _ env: [String: String]) -> (String, String) {
            let result = StatePaths.configPath(
                flag: flag, stateDirectory: state, environment: Environment(env.merging(["HOME": dir.path]) { $1 }))
            return (result.path, sourceLabel(result.source))
        }
        #expect(resolve(nil, [:]) == (state + "/openclaw.json", "state dir"))
        dir.write("state/clawdbot.json", "{}")
        #expect(resolve(nil, [:]).0 == state + "/clawdbot.json")
        dir.write("state/openclaw.json", "{}")
        #expect(resolve(nil, [:]).0 == state + "/openclaw.json")
        let env = ["OPENCLAW_CONFIG_PATH": "/etc/a.json", "CLAWDBOT_CONFIG_PATH": "/etc/b.json"]
        #expect(resolve(nil, env) == ("/etc/a.json", "OPENCLAW_CONFIG_PATH"))
        // CLAWDBOT_CONFIG_PATH is ignored: the state directory's file is used.
        #expect(resolve(nil, ["CLAWDBOT_CONFIG_PATH": "/etc/b.json"]) == (state + "/openclaw.json", "state dir"))
        #expect(resolve("~/flag.json", env) == (dir.path + "/flag.json", "--config-path"))
    }

    /// `--profile NAME` / `OPENCLAW_PROFILE` as the official CLI applies them: `~/.openclaw-NAME` and its
    /// `openclaw.json` unless OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH (or our flags) say otherwise.
    @Test func profilesSelectTheirOwnStateDirectoryAndConfig() throws {
        let dir = ConfigTestDirectory()
        let home = dir.sub("home")
        dir.mkdir("home/.openclaw")
        dir.write("home/.openclaw-work/clawdbot.json", "{}")
        func paths(flag: String?, _ extra: [String: String], stateFlag: String? = nil, configFlag: String? = nil) throws
            -> (state: String, stateSource: String, config: String, configSource: String) {
            let env = Environment(["HOME": home].merging(extra) { $1 })
            let profile = try StatePaths.profile(flag: flag, environment: env)
            let state = StatePaths.stateDirectory(flag: stateFlag, environment: env, profile: profile)
            let config = StatePaths.configPath(flag: configFlag, stateDirectory: state.path, environment: env, profile: profile)
            return (state.path, sourceLabel(state.source), config.path, sourceLabel(config.source))
        }
        let work = try paths(flag: "work", [:])
        #expect(work.state == home + "/.openclaw-work" && work.stateSource == "profile work")
        // A profile's config is its openclaw.json, never a legacy name found there.
        #expect(work.config == home + "/.openclaw-work/openclaw.json" && work.configSource == "profile work")
        // The environment names a profile when the flag does not; the flag wins.
        #expect(try paths(flag: nil, ["OPENCLAW_PROFILE": "ops"]).state == home + "/.openclaw-ops")
        #expect(try paths(flag: "work", ["OPENCLAW_PROFILE": "ops"]).state == home + "/.openclaw-work")
        // `default` is the plain directory.
        #expect(try paths(flag: "Default", [:]).state == home + "/.openclaw")
        // Explicit locations beat the profile: OPENCLAW_STATE_DIR keeps the profile's config inside it.
        let explicit = try paths(flag: "work", ["OPENCLAW_STATE_DIR": "/srv/s"])
        #expect(explicit.state == "/srv/s" && explicit.config == "/srv/s/openclaw.json")
        #expect(try paths(flag: "work", ["OPENCLAW_CONFIG_PATH": "/etc/c.json"]).config == "/etc/c.json")
        #expect(try paths(flag: "work", [:], stateFlag: "/srv/f").state == "/srv/f")
        #expect(try paths(flag: "work", [:], configFlag: "/srv/f.json").config == "/srv/f.json")
        // OPENCLAW_HOME moves the profile directory too.
        #expect(try paths(flag: "work", ["OPENCLAW_HOME": dir.sub("alt")]).state == dir.sub("alt") + "/.openclaw-work")
        // Names: letters, digits, _ and -, starting with a letter or digit, at most 64.
        for bad in ["../x", "-x", "a b", "a/b", String(repeating: "a", count: 65)] {
            #expect(throws: ConfigError.invalidProfile(name: bad, source: .option(.profile))) { try paths(flag: bad, [:]) }
        }
        #expect(throws: ConfigError.invalidProfile(name: "bad.name", source: .environment("OPENCLAW_PROFILE"))) {
            try paths(flag: nil, ["OPENCLAW_PROFILE": "bad.name"])
        }
        #expect(try paths(flag: "A_b-9", [:]).state == home + "/.openclaw-A_b-9")
    }

    @Test func environmentSnapshotMatchesTheProcess() {
        let snapshot = Environment.current()
        let expected = ProcessInfo.processInfo.environment
        #expect(snapshot.values == expected)
        #expect(!snapshot.values.isEmpty)
        #expect(Environment(["A": "  x "]).trimmed("A") == "x")
        #expect(Environment(["A": "   "]).trimmed("A") == nil)
    }
}
