import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawState

/// A secret ref is resolved only when it is the credential that wins: `exec` providers that leave a
/// mark each time they run show which ones ran, and how often.
@Suite struct SecretResolutionOrderTests {
    /// Providers `a` … `d`: each appends its name to `runs` and answers `<name>-tok`, or fails (exit 1)
    /// when its name is in `failing`.
    private static func providers(_ dir: ConfigTestDirectory, failing: Set<String> = []) -> String {
        let runs = dir.sub("runs")
        var entries: [String] = []
        for name in ["a", "b", "c", "d"] {
            let body = failing.contains(name)
                ? "echo \(name) >> \"\(runs)\"\nexit 1"
                : "echo \(name) >> \"\(runs)\"\nprintf '{\"protocolVersion\":1,\"values\":{\"x\":\"\(name)-tok\"}}'"
            let script = ProcessTestSupport.script(dir, "bin/\(name)", body)
            entries.append(#"\#(name):{source:"exec",command:"\#(script)"}"#)
        }
        return "secrets:{providers:{" + entries.joined(separator: ",") + "}}"
    }

    private static func ref(_ name: String) -> String { #"{source:"exec",provider:"\#(name)",id:"x"}"# }

    private func resolve(_ gateway: String, env: [String: String] = [:], failing: Set<String> = [])
        throws(ConfigError) -> (ResolvedConnection, [String]) {
        let dir = ConfigTestDirectory()
        dir.write(".openclaw/openclaw.json", "{" + Self.providers(dir, failing: failing) + ",gateway:" + gateway + "}")
        let environment = Environment(["HOME": dir.path].merging(env) { $1 })
        let resolved = try ConnectionResolver.resolve(options: ConnectionOptions(), environment: environment)
        let runs = ((try? String(contentsOfFile: dir.sub("runs"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (resolved, runs)
    }

    private func runs(_ gateway: String, env: [String: String] = [:], failing: Set<String>) -> (ConfigError?, [String]) {
        let dir = ConfigTestDirectory()
        dir.write(".openclaw/openclaw.json", "{" + Self.providers(dir, failing: failing) + ",gateway:" + gateway + "}")
        let environment = Environment(["HOME": dir.path].merging(env) { $1 })
        var failure: ConfigError? = nil
        do { _ = try ConnectionResolver.resolve(options: ConnectionOptions(), environment: environment) } catch { failure = error }
        let runs = ((try? String(contentsOfFile: dir.sub("runs"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (failure, runs)
    }

    @Test func localModeUsesTheAuthRefAndNeverRunsTheRemoteFallback() throws {
        let (resolved, runs) = try resolve("{auth:{token:\(Self.ref("a"))},remote:{token:\(Self.ref("b"))}}",
                                           env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"])
        #expect(resolved.token?.value == "a-tok")
        #expect(runs == ["a"])
    }

    @Test func localModeRunsTheRemoteRefOnlyWhenNothingComesBeforeIt() throws {
        let (fromEnv, envRuns) = try resolve("{remote:{token:\(Self.ref("b"))}}", env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"])
        #expect(fromEnv.token?.value == "env-tok" && envRuns.isEmpty)
        let (fromRemote, remoteRuns) = try resolve("{remote:{token:\(Self.ref("b"))}}")
        #expect(fromRemote.token?.value == "b-tok" && remoteRuns == ["b"])
    }

    @Test func remoteModeRunsTheRemoteRefAndNotTheLocalOne() throws {
        let (resolved, runs) = try resolve(
            #"{mode:"remote",remote:{url:"wss://gw.example.com",token:\#(Self.ref("b")),password:\#(Self.ref("d"))},auth:{token:\#(Self.ref("a")),password:\#(Self.ref("c"))}}"#)
        #expect(resolved.token?.value == "b-tok" && resolved.password == nil)
        #expect(runs == ["b"])
    }

    @Test func aRefThatCannotWinBesideAPlainCredentialIsNotRun() throws {
        let (password, passwordRuns) = try resolve(#"{auth:{token:\#(Self.ref("a")),password:"plain-pw"}}"#)
        #expect(password.token == nil && password.password?.value == "plain-pw" && passwordRuns.isEmpty)
        let (mode, modeRuns) = try resolve(#"{auth:{mode:"password",token:\#(Self.ref("a"))}}"#, env: ["OPENCLAW_GATEWAY_PASSWORD": "pw"])
        #expect(mode.token == nil && mode.password?.value == "pw" && modeRuns.isEmpty)
        let (none, noneRuns) = try resolve(#"{auth:{mode:"none",token:\#(Self.ref("a")),password:\#(Self.ref("c"))}}"#)
        #expect(none.token == nil && none.password == nil && noneRuns.isEmpty)
    }

    @Test func explicitOrEnvironmentURLsRunNoProvider() throws {
        let dir = ConfigTestDirectory()
        dir.write(".openclaw/openclaw.json", "{" + Self.providers(dir) + ",gateway:{auth:{token:\(Self.ref("a"))}}}")
        let environment = Environment(["HOME": dir.path, "OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1"])
        _ = try ConnectionResolver.resolve(options: ConnectionOptions(), environment: environment)
        _ = try ConnectionResolver.resolve(options: ConnectionOptions(url: "ws://127.0.0.1:2"), environment: Environment(["HOME": dir.path]))
        _ = try ConnectionResolver.resolve(options: ConnectionOptions(token: Secret("flag")), environment: Environment(["HOME": dir.path]))
        #expect(!FileManager.default.fileExists(atPath: dir.sub("runs")))
    }

    @Test func aFailingRefIsRunOnceAndFailsWithItsOwnReason() {
        let (localError, localRuns) = runs("{auth:{token:\(Self.ref("a"))}}", env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"], failing: ["a"])
        guard case .secretUnavailable(let key, _, let ref, .exited(code: 1)) = localError else {
            Issue.record("\(String(describing: localError))"); return
        }
        #expect(key == "gateway.auth.token" && ref.provider == "a")
        #expect(localRuns == ["a"])
        // Remote mode skips it for the environment's token.
        let (remoteError, remoteRuns) = runs(#"{mode:"remote",remote:{url:"wss://gw.example.com",token:\#(Self.ref("b"))}}"#,
                                             env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"], failing: ["b"])
        #expect(remoteError == nil && remoteRuns == ["b"])
        let (aloneError, aloneRuns) = runs(#"{mode:"remote",remote:{url:"wss://gw.example.com",token:\#(Self.ref("b"))}}"#, failing: ["b"])
        guard case .secretUnavailable("gateway.remote.token", _, _, .exited(code: 1)) = aloneError else {
            Issue.record("\(String(describing: aloneError))"); return
        }
        #expect(aloneRuns == ["b"])
    }
}
