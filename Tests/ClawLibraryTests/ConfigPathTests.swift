import Foundation
import Testing
@testable import ClawSystem
@testable import ClawState

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
        // Flag beats both env vars; OPENCLAW_STATE_DIR beats CLAWDBOT_STATE_DIR; blank values are ignored.
        let both = ["OPENCLAW_STATE_DIR": "/srv/a", "CLAWDBOT_STATE_DIR": "/srv/b"]
        #expect(resolve("/srv/flag", both) == ("/srv/flag", "--state-directory"))
        #expect(resolve(nil, both) == ("/srv/a", "OPENCLAW_STATE_DIR"))
        #expect(resolve(nil, ["OPENCLAW_STATE_DIR": "  ", "CLAWDBOT_STATE_DIR": "/srv/b"]) == ("/srv/b", "CLAWDBOT_STATE_DIR"))
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
        #expect(resolve(nil, ["CLAWDBOT_CONFIG_PATH": "/etc/b.json"]) == ("/etc/b.json", "CLAWDBOT_CONFIG_PATH"))
        #expect(resolve("~/flag.json", env) == (dir.path + "/flag.json", "--config-path"))
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
