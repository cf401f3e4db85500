import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawState

/// One precedence rule: a config file, an environment and flags, and what must win.
struct PrecedenceCase: CustomTestStringConvertible, Sendable {
    let name: String
    var config: String = "{}"
    var env: [String: String] = [:]
    var options = ConnectionOptions()
    var url: String
    var urlSource: String
    var token: String? = nil
    var tokenSource: String = "none"
    var password: String? = nil
    var passwordSource: String = "none"
    var isOverride = false

    var testDescription: String { name }
}

let configFile = "<CFG>"
let local = "local gateway (port from default)"

let precedenceCases: [PrecedenceCase] = [
    PrecedenceCase(name: "nothing configured: loopback default port, no credentials",
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "local: gateway.auth.token from the config",
                   config: #"{gateway:{auth:{token:"cfg-tok"}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   token: "cfg-tok", tokenSource: "gateway.auth.token in <CFG>"),
    PrecedenceCase(name: "local (config-first): gateway.auth.token beats OPENCLAW_GATEWAY_TOKEN",
                   config: #"{gateway:{auth:{token:"cfg-tok"}}}"#, env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   url: "ws://127.0.0.1:18789", urlSource: local, token: "cfg-tok", tokenSource: "gateway.auth.token in <CFG>"),
    PrecedenceCase(name: "local: OPENCLAW_GATEWAY_TOKEN when gateway.auth.token is not set",
                   env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   url: "ws://127.0.0.1:18789", urlSource: local, token: "env-tok", tokenSource: "OPENCLAW_GATEWAY_TOKEN"),
    PrecedenceCase(name: "local: OPENCLAW_GATEWAY_TOKEN beats the gateway.remote.token fallback",
                   config: #"{gateway:{remote:{token:"rem-tok",password:"rem-pw"}}}"#,
                   env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok", "OPENCLAW_GATEWAY_PASSWORD": "env-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local, token: "env-tok", tokenSource: "OPENCLAW_GATEWAY_TOKEN",
                   password: "env-pw", passwordSource: "OPENCLAW_GATEWAY_PASSWORD"),
    PrecedenceCase(name: "local: CLAWDBOT_GATEWAY_TOKEN is not read",
                   env: ["CLAWDBOT_GATEWAY_TOKEN": "old-tok"],
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "local: only OPENCLAW_GATEWAY_TOKEN is read beside CLAWDBOT_GATEWAY_TOKEN",
                   env: ["CLAWDBOT_GATEWAY_TOKEN": "old-tok", "OPENCLAW_GATEWAY_TOKEN": "new-tok"],
                   url: "ws://127.0.0.1:18789", urlSource: local, token: "new-tok", tokenSource: "OPENCLAW_GATEWAY_TOKEN"),
    PrecedenceCase(name: "local (config-first): gateway.auth.password beats OPENCLAW_GATEWAY_PASSWORD, token and password both returned",
                   config: #"{gateway:{auth:{token:"cfg-tok",password:"cfg-pw"}}}"#,
                   env: ["OPENCLAW_GATEWAY_PASSWORD": "env-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   token: "cfg-tok", tokenSource: "gateway.auth.token in <CFG>",
                   password: "cfg-pw", passwordSource: "gateway.auth.password in <CFG>"),
    PrecedenceCase(name: "local: CLAWDBOT_GATEWAY_PASSWORD is not read",
                   env: ["CLAWDBOT_GATEWAY_PASSWORD": "old-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "local trusted-proxy: no gateway.remote.password fallback",
                   config: #"{gateway:{auth:{mode:"trusted-proxy"},remote:{password:"rem-pw"}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "local: the example placeholder in OPENCLAW_GATEWAY_TOKEN counts as unset",
                   config: #"{gateway:{remote:{token:"rem-tok"}}}"#,
                   env: ["OPENCLAW_GATEWAY_TOKEN": "change-me-to-a-long-random-token"],
                   url: "ws://127.0.0.1:18789", urlSource: local, token: "rem-tok", tokenSource: "gateway.remote.token in <CFG>"),
    PrecedenceCase(name: "local: gateway.remote.token is the fallback when gateway.auth.token is not configured",
                   config: #"{gateway:{remote:{token:"rem-tok",password:"rem-pw"}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   token: "rem-tok", tokenSource: "gateway.remote.token in <CFG>",
                   password: "rem-pw", passwordSource: "gateway.remote.password in <CFG>"),
    PrecedenceCase(name: "local: the example placeholder token counts as unset",
                   config: #"{gateway:{auth:{token:"change-me-to-a-long-random-token"}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "--token wins alone: env and config credentials are not borrowed",
                   config: #"{gateway:{auth:{token:"cfg-tok",password:"cfg-pw"}}}"#,
                   env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok", "OPENCLAW_GATEWAY_PASSWORD": "env-pw"],
                   options: ConnectionOptions(token: Secret("flag-tok")),
                   url: "ws://127.0.0.1:18789", urlSource: local, token: "flag-tok", tokenSource: "--token"),
    PrecedenceCase(name: "--password wins alone",
                   config: #"{gateway:{auth:{token:"cfg-tok"}}}"#, env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   options: ConnectionOptions(password: Secret("flag-pw")),
                   url: "ws://127.0.0.1:18789", urlSource: local, password: "flag-pw", passwordSource: "--password"),
    PrecedenceCase(name: "--url never borrows config or env credentials",
                   config: #"{gateway:{auth:{token:"cfg-tok"}}}"#, env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   options: ConnectionOptions(url: "ws://127.0.0.1:9999"),
                   url: "ws://127.0.0.1:9999", urlSource: "--url", isOverride: true),
    PrecedenceCase(name: "--url with --token uses the flag",
                   config: #"{gateway:{auth:{token:"cfg-tok"}}}"#,
                   options: ConnectionOptions(url: "ws://127.0.0.1:9999", token: Secret("flag-tok")),
                   url: "ws://127.0.0.1:9999", urlSource: "--url", token: "flag-tok", tokenSource: "--token",
                   isOverride: true),
    PrecedenceCase(name: "--url beats OPENCLAW_GATEWAY_URL",
                   env: ["OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1111"],
                   options: ConnectionOptions(url: "ws://127.0.0.1:2222"),
                   url: "ws://127.0.0.1:2222", urlSource: "--url", isOverride: true),
    PrecedenceCase(name: "env URL uses only env credentials",
                   config: #"{gateway:{auth:{token:"cfg-tok",password:"cfg-pw"}}}"#,
                   env: ["OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1111", "OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   url: "ws://127.0.0.1:1111", urlSource: "OPENCLAW_GATEWAY_URL",
                   token: "env-tok", tokenSource: "OPENCLAW_GATEWAY_TOKEN", isOverride: true),
    PrecedenceCase(name: "env URL without env credentials gets none from the config",
                   config: #"{gateway:{auth:{token:"cfg-tok"}}}"#,
                   env: ["OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1111"],
                   url: "ws://127.0.0.1:1111", urlSource: "OPENCLAW_GATEWAY_URL", isOverride: true),
    PrecedenceCase(name: "CLAWDBOT_GATEWAY_URL is not read",
                   env: ["CLAWDBOT_GATEWAY_URL": "ws://127.0.0.1:3333"],
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "only OPENCLAW_GATEWAY_URL is read beside CLAWDBOT_GATEWAY_URL",
                   env: ["CLAWDBOT_GATEWAY_URL": "ws://127.0.0.1:3333", "OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:4444"],
                   url: "ws://127.0.0.1:4444", urlSource: "OPENCLAW_GATEWAY_URL", isOverride: true),
    PrecedenceCase(name: "env URL beats remote mode's gateway.remote.url",
                   config: #"{gateway:{mode:"remote",remote:{url:"wss://gw.example.com",token:"rem-tok"}}}"#,
                   env: ["OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1111"],
                   url: "ws://127.0.0.1:1111", urlSource: "OPENCLAW_GATEWAY_URL", isOverride: true),
    PrecedenceCase(name: "local port: gateway.port, and wss when gateway.tls.enabled",
                   config: #"{gateway:{port:19001,tls:{enabled:true}}}"#,
                   url: "wss://127.0.0.1:19001", urlSource: "local gateway (port from gateway.port in <CFG>)"),
    PrecedenceCase(name: "local port: OPENCLAW_GATEWAY_PORT beats gateway.port",
                   config: #"{gateway:{port:19001}}"#, env: ["OPENCLAW_GATEWAY_PORT": "19555"],
                   url: "ws://127.0.0.1:19555", urlSource: "local gateway (port from OPENCLAW_GATEWAY_PORT)"),
    PrecedenceCase(name: "local port: CLAWDBOT_GATEWAY_PORT is not read",
                   env: ["CLAWDBOT_GATEWAY_PORT": "19555"],
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "local port: an unusable OPENCLAW_GATEWAY_PORT falls back to the config",
                   config: #"{gateway:{port:19001}}"#, env: ["OPENCLAW_GATEWAY_PORT": "nope"],
                   url: "ws://127.0.0.1:19001", urlSource: "local gateway (port from gateway.port in <CFG>)"),
    PrecedenceCase(name: "remote mode: gateway.remote.url with gateway.remote.token first",
                   config: #"{gateway:{mode:"remote",auth:{token:"loc-tok"},remote:{url:"wss://gw.example.com",token:"rem-tok"}}}"#,
                   env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   url: "wss://gw.example.com", urlSource: "gateway.remote.url in <CFG>",
                   token: "rem-tok", tokenSource: "gateway.remote.token in <CFG>"),
    PrecedenceCase(name: "remote mode: env token, then gateway.auth.token, when gateway.remote.token is missing",
                   config: #"{gateway:{mode:"remote",auth:{token:"loc-tok"},remote:{url:"wss://gw.example.com"}}}"#,
                   env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   url: "wss://gw.example.com", urlSource: "gateway.remote.url in <CFG>",
                   token: "env-tok", tokenSource: "OPENCLAW_GATEWAY_TOKEN"),
    PrecedenceCase(name: "remote mode: gateway.auth.token as the last resort",
                   config: #"{gateway:{mode:"remote",auth:{token:"loc-tok"},remote:{url:"wss://gw.example.com"}}}"#,
                   url: "wss://gw.example.com", urlSource: "gateway.remote.url in <CFG>",
                   token: "loc-tok", tokenSource: "gateway.auth.token in <CFG>"),
    PrecedenceCase(name: "remote mode: env password beats gateway.remote.password",
                   config: #"{gateway:{mode:"remote",remote:{url:"wss://gw.example.com",password:"rem-pw"}}}"#,
                   env: ["OPENCLAW_GATEWAY_PASSWORD": "env-pw"],
                   url: "wss://gw.example.com", urlSource: "gateway.remote.url in <CFG>",
                   password: "env-pw", passwordSource: "OPENCLAW_GATEWAY_PASSWORD"),
    PrecedenceCase(name: "remote mode: gateway.remote.password beats gateway.auth.password",
                   config: #"{gateway:{mode:"remote",auth:{password:"loc-pw"},remote:{url:"wss://gw.example.com",password:"rem-pw"}}}"#,
                   url: "wss://gw.example.com", urlSource: "gateway.remote.url in <CFG>",
                   password: "rem-pw", passwordSource: "gateway.remote.password in <CFG>"),
    PrecedenceCase(name: "local mode ignores gateway.remote.url",
                   config: #"{gateway:{mode:"local",remote:{url:"wss://gw.example.com"}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "env secret ref and ${VAR} inside text in config credentials",
                   config: #"{gateway:{auth:{token:{source:"env",provider:"default",id:"GW_TOK"},password:"pw-${GW_PW}"}}}"#,
                   env: ["GW_TOK": "ref-tok", "GW_PW": "var"],
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   password: "pw-var", passwordSource: "gateway.auth.password in <CFG>"),
    PrecedenceCase(name: "two refs: the token ref, considered first, wins alone; the password ref is not read",
                   config: #"{gateway:{auth:{token:{source:"env",provider:"default",id:"GW_TOK"},password:"${GW_PW}"}}}"#,
                   env: ["GW_TOK": "ref-tok", "GW_PW": "var-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   token: "ref-tok", tokenSource: "gateway.auth.token in <CFG>"),
    PrecedenceCase(name: "a token ref whose provider fails leaves the password ref to win",
                   config: #"{gateway:{auth:{token:{source:"env",provider:"default",id:"GW_UNSET"},password:"${GW_PW}"}}}"#,
                   env: ["GW_PW": "var-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   password: "var-pw", passwordSource: "gateway.auth.password in <CFG>"),
    PrecedenceCase(name: "auth.mode password: only the password ref is considered",
                   config: #"{gateway:{auth:{mode:"password",token:{source:"env",provider:"default",id:"GW_TOK"},password:"${GW_PW}"}}}"#,
                   env: ["GW_TOK": "ref-tok", "GW_PW": "var-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   password: "var-pw", passwordSource: "gateway.auth.password in <CFG>"),
    PrecedenceCase(name: "an unresolvable secret ref is skipped when another credential is found",
                   config: #"{gateway:{auth:{mode:"password",token:{source:"file",provider:"f",id:"/x"}}}}"#,
                   env: ["OPENCLAW_GATEWAY_PASSWORD": "env-pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   password: "env-pw", passwordSource: "OPENCLAW_GATEWAY_PASSWORD"),
    PrecedenceCase(name: "remote mode: an unresolvable gateway.remote.token ref is skipped for OPENCLAW_GATEWAY_TOKEN",
                   config: #"{gateway:{mode:"remote",remote:{url:"wss://gw.example.com",token:{source:"exec",provider:"v",id:"x"}}}}"#,
                   env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                   url: "wss://gw.example.com", urlSource: "gateway.remote.url in <CFG>",
                   token: "env-tok", tokenSource: "OPENCLAW_GATEWAY_TOKEN"),
    PrecedenceCase(name: "local: a token ref that cannot win beside a password is left alone",
                   config: #"{gateway:{auth:{token:{source:"exec",provider:"v",id:"x"},password:"cfg-pw"}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local,
                   password: "cfg-pw", passwordSource: "gateway.auth.password in <CFG>"),
    PrecedenceCase(name: "local auth.mode none: secret refs are not considered",
                   config: #"{gateway:{auth:{mode:"none",token:{source:"exec",provider:"v",id:"x"}}}}"#,
                   url: "ws://127.0.0.1:18789", urlSource: local),
    PrecedenceCase(name: "whole-string ${NAME} is an env ref: it cannot win beside a password, so it is not read",
                   config: #"{gateway:{auth:{token:"${UNSET_TOKEN_VAR}"}}}"#, env: ["OPENCLAW_GATEWAY_PASSWORD": "pw"],
                   url: "ws://127.0.0.1:18789", urlSource: local, password: "pw", passwordSource: "OPENCLAW_GATEWAY_PASSWORD"),
    PrecedenceCase(name: "the dev profile's local gateway is port 19001, ahead of gateway.port",
                   config: #"{gateway:{port:18800}}"#, env: ["OPENCLAW_PROFILE": "dev"],
                   url: "ws://127.0.0.1:19001", urlSource: "local gateway (port from profile dev)"),
    PrecedenceCase(name: "OPENCLAW_GATEWAY_PORT beats the dev profile's port",
                   env: ["OPENCLAW_PROFILE": "dev", "OPENCLAW_GATEWAY_PORT": "19555"],
                   url: "ws://127.0.0.1:19555", urlSource: "local gateway (port from OPENCLAW_GATEWAY_PORT)"),
    PrecedenceCase(name: "another profile keeps the usual port",
                   env: ["OPENCLAW_PROFILE": "work"],
                   url: "ws://127.0.0.1:18789", urlSource: local),
]

@Suite struct ConfigResolverTests {
    /// Runs URL choice and credential resolution (everything but URL parsing) for one case.
    static func run(_ c: PrecedenceCase, dir: ConfigTestDirectory) throws(ConfigError)
        -> (choice: ConnectionResolver.URLChoice, token: ConnectionResolver.Found?, password: ConnectionResolver.Found?)
    {
        let path = dir.write("state/openclaw.json", c.config)
        let config = try GatewayConfigFile.load(path: path)
        let env = Environment(c.env.merging(["HOME": dir.path]) { $1 })
        let profile = try StatePaths.profile(flag: c.options.profile, environment: env)
        let choice = try ConnectionResolver.chooseURL(options: c.options, config: config, environment: env, profile: profile)
        let credentials = try ConnectionResolver.resolveCredentials(
            options: c.options, config: config, environment: env, urlOverride: choice.override,
            isRemote: config.isRemoteMode, stateDirectory: dir.sub("state"))
        return (choice, credentials.token, credentials.password)
    }

    @Test(arguments: precedenceCases)
    func precedence(_ c: PrecedenceCase) throws {
        let dir = ConfigTestDirectory()
        let path = dir.sub("state/openclaw.json")
        let result = try Self.run(c, dir: dir)
        let fix = { (text: String) in text.replacingOccurrences(of: configFile, with: path) }
        #expect(result.choice.text == c.url)
        #expect(sourceLabel(result.choice.source) == fix(c.urlSource))
        #expect((result.choice.override != nil) == c.isOverride)
        #expect(result.token?.value == c.token)
        #expect(sourceLabel(result.token?.source) == fix(c.tokenSource))
        #expect(result.password?.value == c.password)
        #expect(sourceLabel(result.password?.source) == fix(c.passwordSource))
    }

    @Test func remoteModeWithoutURLIsAnError() {
        let dir = ConfigTestDirectory()
        let c = PrecedenceCase(name: "", config: #"{gateway:{mode:"remote"}}"#, url: "", urlSource: "")
        #expect(throws: ConfigError.remoteURLMissing(path: dir.sub("state/openclaw.json"))) { try Self.run(c, dir: dir) }
    }

    @Test func unresolvableSecretRefFailsWhenNothingElseIsFound() {
        let dir = ConfigTestDirectory()
        let path = dir.sub("state/openclaw.json")
        let file = PrecedenceCase(name: "", config: #"{gateway:{auth:{token:{source:"file",provider:"f",id:"/t"}}}}"#, url: "", urlSource: "")
        #expect(throws: ConfigError.secretUnavailable(key: "gateway.auth.token", path: path,
                                                      ref: SecretRef(source: .file, provider: "f", id: "/t"),
                                                      problem: .providerNotConfigured)) {
            try Self.run(file, dir: dir)
        }
        let env = PrecedenceCase(name: "", config: #"{gateway:{auth:{token:{source:"env",provider:"default",id:"UNSET_VAR"}}}}"#, url: "", urlSource: "")
        #expect(throws: ConfigError.secretUnavailable(key: "gateway.auth.token", path: path,
                                                      ref: SecretRef(source: .env, provider: "default", id: "UNSET_VAR"),
                                                      problem: .variableUnset)) {
            try Self.run(env, dir: dir)
        }
    }

    /// Config-first: a configured `gateway.auth.token` ref that fails is not masked by the environment.
    @Test func localConfiguredRefThatFailsIsNotMaskedByTheEnvironment() {
        let dir = ConfigTestDirectory()
        let c = PrecedenceCase(name: "", config: #"{gateway:{auth:{token:{source:"exec",provider:"v",id:"x"}}}}"#,
                               env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"], url: "", urlSource: "")
        #expect(throws: ConfigError.secretUnavailable(key: "gateway.auth.token", path: dir.sub("state/openclaw.json"),
                                                      ref: SecretRef(source: .exec, provider: "v", id: "x"),
                                                      problem: .providerNotConfigured)) {
            try Self.run(c, dir: dir)
        }
        // With auth.mode token, a plain password beside it does not save a failing token ref either.
        let token = PrecedenceCase(name: "", config: #"{gateway:{auth:{mode:"token",token:"$GW_TOKEN_UNSET",password:"pw"}}}"#,
                                   url: "", urlSource: "")
        #expect(throws: ConfigError.secretUnavailable(key: "gateway.auth.token", path: dir.sub("state/openclaw.json"),
                                                      ref: SecretRef(source: .env, provider: "default", id: "GW_TOKEN_UNSET"),
                                                      problem: .variableUnset)) {
            try Self.run(token, dir: dir)
        }
    }

    @Test func missingVariableInACredentialFailsAtOnce() {
        let dir = ConfigTestDirectory()
        let c = PrecedenceCase(name: "", config: #"{gateway:{auth:{token:"Bearer-${UNSET_TOKEN_VAR}"}}}"#,
                               env: ["OPENCLAW_GATEWAY_PASSWORD": "pw"], url: "", urlSource: "")
        #expect(throws: ConfigError.missingEnvironmentVariable(
            name: "UNSET_TOKEN_VAR", key: "gateway.auth.token", path: dir.sub("state/openclaw.json"))) {
            try Self.run(c, dir: dir)
        }
    }

    @Test func tokenFileIsReadAndTrimmed() throws {
        let dir = ConfigTestDirectory()
        let file = dir.write("token.txt", "  file-tok\n")
        let c = PrecedenceCase(name: "", env: ["OPENCLAW_GATEWAY_TOKEN": "env-tok"],
                               options: ConnectionOptions(tokenFile: file), url: "", urlSource: "")
        let result = try Self.run(c, dir: dir)
        #expect(result.token?.value == "file-tok")
        #expect(sourceLabel(result.token?.source) == "--token-file \(file)")
        let empty = dir.write("empty.txt", " \n")
        #expect(throws: ConfigError.tokenFileEmpty(path: empty)) {
            try Self.run(PrecedenceCase(name: "", options: ConnectionOptions(tokenFile: empty), url: "", urlSource: ""), dir: dir)
        }
        #expect(throws: ConfigError.self) {
            try Self.run(PrecedenceCase(name: "", options: ConnectionOptions(tokenFile: dir.sub("missing")), url: "", urlSource: ""), dir: dir)
        }
    }

    @Test func fingerprintsAcceptHexWithColonsAndPrefix() throws {
        let hex = String(repeating: "ab", count: 32)
        #expect(try ConnectionResolver.parseFingerprint(hex, source: .none) == [UInt8](repeating: 0xab, count: 32))
        let colons = (0..<32).map { _ in "AB" }.joined(separator: ":")
        #expect(try ConnectionResolver.parseFingerprint("sha256:" + colons, source: .none).count == 32)
        #expect(throws: ConfigError.invalidTLSFingerprint(source: .none)) { try ConnectionResolver.parseFingerprint("abcd", source: .none) }
    }

    @Test func plaintextPolicy() {
        for host in ["127.0.0.1", "127.9.8.7", "localhost", "LOCALHOST", "::1", "[::1]", "::ffff:127.0.0.1"] {
            #expect(PlaintextWebSocketPolicy.isLoopback(host), "\(host)")
        }
        for host in ["10.0.0.1", "192.168.1.2", "gw.example.com", "0.0.0.0", "128.0.0.1", "::", "127.0.0.1.example.com"] {
            #expect(!PlaintextWebSocketPolicy.isLoopback(host), "\(host)")
        }
        for host in ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "100.100.1.1", "fd00::1", "box.local", "m.tail1234.ts.net"] {
            #expect(PlaintextWebSocketPolicy.isPrivateOrLoopback(host), "\(host)")
        }
        for host in ["8.8.8.8", "172.32.0.1", "gw.example.com", "2001:db8::1"] {
            #expect(!PlaintextWebSocketPolicy.isPrivateOrLoopback(host), "\(host)")
        }
    }

    @Test func userInfoIsRedactedFromURLsInMessages() {
        #expect(ConnectionResolver.redactUserInfo("ws://bob:hunter2@gw.example.com/x@y") == "ws://<redacted>@gw.example.com/x@y")
        #expect(ConnectionResolver.redactUserInfo("wss://gw.example.com/a@b") == "wss://gw.example.com/a@b")
    }
}
