import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

@Suite struct ConfigFileTests {
    @Test func missingFileIsAnEmptyConfig() throws {
        let dir = ConfigTestDirectory()
        let config = try GatewayConfigFile.load(path: dir.sub("nope.json"))
        #expect(!config.exists)
        #expect(!config.isRemoteMode)
    }

    @Test func json5WithEnvSubstitutionAndEnvSecretRefs() throws {
        let dir = ConfigTestDirectory()
        let path = dir.write("openclaw.json", """
            // OpenClaw config, JSON5
            {
              gateway: {
                mode: 'remote',
                port: 18790,
                tls: { enabled: true, },
                auth: { mode: "token", token: "${LOCAL_TOKEN}", password: "pre-${PASS_PART}-post" },
                remote: {
                  url: "wss://${GW_HOST}:443/",
                  token: { source: "env", provider: "default", id: "REMOTE_TOKEN" },
                  password: "$${NOT_SUBSTITUTED}",
                },
              },
            }
            """)
        let env = Environment([
            "LOCAL_TOKEN": "tok-local", "PASS_PART": "mid", "GW_HOST": "gw.example.com", "REMOTE_TOKEN": "tok-remote",
        ])
        let config = try GatewayConfigFile.load(path: path)
        #expect(config.isRemoteMode)
        #expect(try config.port("gateway", "port") == 18790)
        #expect(try config.bool("gateway", "tls", "enabled") == true)
        #expect(try config.string("gateway", "remote", "url", environment: env) == "wss://gw.example.com:443/")
        let resolve = { (keys: [String]) throws(ConfigError) -> String? in
            let input = try SecretInput.parse(config.valueAt(keys), key: keys.joined(separator: "."), path: path)
            return try config.resolve(input, key: keys.joined(separator: "."), environment: env, stateDirectory: "/nonexistent")
        }
        #expect(try resolve(["gateway", "auth", "token"]) == "tok-local")
        #expect(try resolve(["gateway", "auth", "password"]) == "pre-mid-post")
        #expect(try resolve(["gateway", "remote", "token"]) == "tok-remote")
        #expect(try resolve(["gateway", "remote", "password"]) == "${NOT_SUBSTITUTED}")
    }

    @Test func secretRefShapes() throws {
        func parse(_ json: JSONValue, defaults: SecretDefaults = SecretDefaults()) throws(ConfigError) -> SecretInput {
            try SecretInput.parse(json, key: "k", path: "/p", defaults: defaults)
        }
        func ref(_ source: SecretRef.Source, _ provider: String, _ id: String) -> SecretInput {
            .ref(SecretRef(source: source, provider: provider, id: id))
        }
        #expect(try parse(["source": "env", "provider": "default", "id": "A"]) == ref(.env, "default", "A"))
        #expect(try parse(["source": "exec", "provider": "vault", "id": "gw/token#1"]) == ref(.exec, "vault", "gw/token#1"))
        // Legacy {source, id}: the provider is secrets.defaults.<source>, else "default".
        #expect(try parse(["source": "file", "id": "/x"]) == ref(.file, "default", "/x"))
        var defaults = SecretDefaults()
        defaults.aliases[.file] = "vault-files"
        defaults.aliases[.env] = "shell"
        #expect(try parse(["source": "file", "id": "/x"], defaults: defaults) == ref(.file, "vault-files", "/x"))
        // "$NAME" and "${NAME}" alone are env refs through the default env provider.
        #expect(try parse("$MY_TOKEN") == ref(.env, "default", "MY_TOKEN"))
        #expect(try parse("${MY_TOKEN}") == ref(.env, "default", "MY_TOKEN"))
        #expect(try parse(" ${MY_TOKEN} ", defaults: defaults) == ref(.env, "shell", "MY_TOKEN"))
        // Everything else is text: lower case, embedded references, the retired markers.
        #expect(try parse("$lowercase") == .text("$lowercase"))
        #expect(try parse("Bearer ${MY_TOKEN}") == .text("Bearer ${MY_TOKEN}"))
        #expect(try parse("secretref-env:MY_TOKEN") == .text("secretref-env:MY_TOKEN"))
        #expect(try parse("__env__:MY_TOKEN") == .text("__env__:MY_TOKEN"))
        #expect(try parse("   ") == .absent)
        #expect(try parse(nil) == .absent)
        #expect(throws: ConfigError.configInvalid(path: "/p", key: "k", expected: "a string or a secret ref {source, provider, id}")) {
            try parse(["source": "env"])
        }
        // A fourth key makes it no ref.
        #expect(throws: ConfigError.self) { try parse(["source": "env", "provider": "default", "id": "A", "x": 1]) }
        #expect(throws: ConfigError.configInvalid(path: "/p", key: "k.source", expected: "\"env\", \"file\", \"exec\" or \"store\"")) {
            try parse(["source": "vault", "provider": "default", "id": "A"])
        }
        #expect(throws: ConfigError.self) { try parse(5) }
        // The grammar of provider names and ids.
        for (source, provider, id) in [("env", "default", "lower"), ("env", "Bad", "A"), ("store", "default", "1A"),
                                       ("file", "f", "relative/x"), ("file", "f", "/a~2b"), ("exec", "v", "a/../b"),
                                       ("exec", "v", "-x"), ("exec", "v", "a b")] {
            let json: JSONValue = ["source": .string(source), "provider": .string(provider), "id": .string(id)]
            do {
                _ = try parse(json)
                Issue.record("accepted \(source):\(provider):\(id)")
            } catch {
                guard case .secretUnavailable(_, _, _, .invalidReference) = error else {
                    Issue.record("\(error)"); continue
                }
            }
        }
        #expect(try parse(["source": "file", "provider": "f", "id": "value"]) == ref(.file, "f", "value"))
        #expect(try parse(["source": "file", "provider": "f", "id": "/a~1b/~0c"]) == ref(.file, "f", "/a~1b/~0c"))
    }

    @Test func missingVariableNamesTheVariableKeyAndFile() throws {
        let dir = ConfigTestDirectory()
        let path = dir.write("openclaw.json", #"{ gateway: { remote: { url: "wss://${NO_SUCH_HOST}/" } } }"#)
        let config = try GatewayConfigFile.load(path: path)
        #expect(throws: ConfigError.missingEnvironmentVariable(name: "NO_SUCH_HOST", key: "gateway.remote.url", path: path)) {
            try config.string("gateway", "remote", "url", environment: Environment())
        }
    }

    @Test func aRefToAnUnconfiguredProviderNamesTheKeyAndTheProvider() throws {
        let dir = ConfigTestDirectory()
        let path = dir.write("openclaw.json", #"{ gateway: { auth: { token: { source: "exec", provider: "vault", id: "gw" } } } }"#)
        let config = try GatewayConfigFile.load(path: path)
        let input = try config.secretInput("gateway", "auth", "token")
        #expect(throws: ConfigError.secretUnavailable(key: "gateway.auth.token", path: path,
                                                      ref: SecretRef(source: .exec, provider: "vault", id: "gw"),
                                                      problem: .providerNotConfigured)) {
            try config.resolve(input, key: "gateway.auth.token", environment: Environment(), stateDirectory: "/nonexistent")
        }
        // `${pass:…}` lookups are not run.
        #expect(throws: ConfigError.unsupportedSecretRef(key: "k", source: "pass", path: "/p")) {
            try ConfigText.substitute("${pass:gw/token}", key: "k", path: "/p", environment: Environment())
        }
    }

    @Test func envProviderAllowlistIsHonoured() throws {
        let dir = ConfigTestDirectory()
        let path = dir.write("openclaw.json", """
            { secrets: { providers: { locked: { source: "env", allowlist: ["OK_VAR"] } } },
              gateway: { auth: { token: { source: "env", provider: "locked", id: "OTHER_VAR" } } } }
            """)
        let config = try GatewayConfigFile.load(path: path)
        let input = try config.secretInput("gateway", "auth", "token")
        #expect(throws: ConfigError.secretUnavailable(key: "gateway.auth.token", path: path,
                                                      ref: SecretRef(source: .env, provider: "locked", id: "OTHER_VAR"),
                                                      problem: .notAllowlisted)) {
            try config.resolve(input, key: "gateway.auth.token", environment: Environment(["OTHER_VAR": "x"]), stateDirectory: "/nonexistent")
        }
    }

    @Test func syntaxErrorsGiveFileLineAndColumn() {
        let dir = ConfigTestDirectory()
        let path = dir.write("openclaw.json", "{\n  gateway: {\n    port: ,\n  }\n}\n")
        do {
            _ = try GatewayConfigFile.load(path: path)
            Issue.record("expected a syntax error")
        } catch {
            guard case .configSyntax(let errorPath, let line, let column, _) = error else {
                Issue.record("unexpected \(error)"); return
            }
            #expect(errorPath == path)
            #expect(line == 3)
            #expect(column == 11)
            // The position is in the fields only: a message that repeated it would show it twice.
            guard case .configSyntax(_, _, _, let message) = error else { return }
            #expect(!message.contains("line") && !message.contains("column"), "\(message)")
        }
    }

    @Test func wrongTypesAreNamed() throws {
        let dir = ConfigTestDirectory()
        let path = dir.write("openclaw.json", #"{ gateway: { port: "18789", tls: { enabled: "yes" } } }"#)
        let config = try GatewayConfigFile.load(path: path)
        #expect(throws: ConfigError.configInvalid(path: path, key: "gateway.port", expected: "a port number (1-65535)")) {
            try config.port("gateway", "port")
        }
        #expect(throws: ConfigError.configInvalid(path: path, key: "gateway.tls.enabled", expected: "true or false")) {
            try config.bool("gateway", "tls", "enabled")
        }
        #expect(throws: ConfigError.configInvalid(path: "/x", key: "the top level", expected: "an object")) {
            try GatewayConfigFile.parse(Array("[1]".utf8), path: "/x")
        }
    }

    @Test func lineAndColumnCountCharactersNotBytes() {
        let bytes = Array("é\nab\u{1F600}c".utf8)
        #expect(JSON5.lineAndColumn(of: 0, in: bytes) == (1, 1))
        #expect(JSON5.lineAndColumn(of: 3, in: bytes) == (2, 1))
        // After "ab😀" (2 + 4 bytes) the next character is column 4.
        #expect(JSON5.lineAndColumn(of: 9, in: bytes) == (2, 4))
    }
}
