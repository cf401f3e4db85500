import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

/// Resolves one ref through a config's `secrets` section, in a private directory that is also HOME.
struct SecretFixture {
    let dir = ConfigTestDirectory()

    func resolve(_ config: String, _ ref: SecretRef, environment: [String: String] = [:],
                 interrupt: Int32? = nil) throws(ConfigError) -> String {
        let path = dir.write("openclaw.json", config)
        let file = try GatewayConfigFile.load(path: path)
        let resolver = SecretResolver(config: file, environment: Environment(["HOME": dir.path].merging(environment) { $1 }),
                                      stateDirectory: dir.sub("state"), interruptDescriptor: interrupt)
        return try resolver.resolve(ref, key: "gateway.auth.token")
    }

    /// The problem the resolution failed with (nil when it succeeded), after checking the error names
    /// the key, the config file and the ref.
    func problem(_ config: String, _ ref: SecretRef, environment: [String: String] = [:]) -> SecretProblem? {
        do {
            _ = try resolve(config, ref, environment: environment)
            return nil
        } catch {
            guard case .secretUnavailable(let key, let path, let failed, let problem) = error else {
                Issue.record("unexpected \(error)")
                return nil
            }
            #expect(key == "gateway.auth.token" && path == dir.sub("openclaw.json") && failed == ref)
            return problem
        }
    }
}

/// The `file` provider: where the file is, who owns it, who may read it, and what is inside.
@Suite struct SecretFileProviderTests {
    static let json = #"{secrets:{providers:{files:{source:"file",path:"~/s/secrets.json"}}}}"#
    static let single = #"{secrets:{providers:{one:{source:"file",path:"~/s/token",mode:"singleValue"}}}}"#

    private func write(_ fixture: SecretFixture, _ name: String, _ text: String, mode: mode_t = 0o600) -> String {
        let path = fixture.dir.write("s/" + name, text)
        chmod(path, mode)
        return path
    }

    @Test func aJSONPointerPicksTheValue() throws {
        let fixture = SecretFixture()
        write(fixture, "secrets.json", #"{"gateway":{"token":"  tok-1  ","a/b":{"~x":"escaped"}},"list":["zero","one"],"n":5}"#)
        let ref = { (id: String) in SecretRef(source: .file, provider: "files", id: id) }
        #expect(try fixture.resolve(Self.json, ref("/gateway/token")) == "tok-1")
        #expect(try fixture.resolve(Self.json, ref("/gateway/a~1b/~0x")) == "escaped")
        #expect(try fixture.resolve(Self.json, ref("/list/1")) == "one")
        #expect(fixture.problem(Self.json, ref("/gateway/missing")) == .pointerNotFound)
        #expect(fixture.problem(Self.json, ref("/list/2")) == .pointerNotFound)
        #expect(fixture.problem(Self.json, ref("/n")) == .valueNotAString)
        #expect(fixture.problem(Self.json, ref("value")) == .jsonPointerRequired)
    }

    @Test func aByteOrderMarkIsDroppedAndOneLineBreakRemovedForASingleValue() throws {
        let fixture = SecretFixture()
        let ref = SecretRef(source: .file, provider: "one", id: "value")
        write(fixture, "token", "\u{FEFF}single-tok\r\n")
        #expect(try fixture.resolve(Self.single, ref) == "single-tok")
        write(fixture, "secrets.json", "\u{FEFF}{\"t\":\"bom-json\"}\n")
        #expect(try fixture.resolve(Self.json, SecretRef(source: .file, provider: "files", id: "/t")) == "bom-json")
        #expect(fixture.problem(Self.single, SecretRef(source: .file, provider: "one", id: "/t")) == .singleValueIDRequired)
        write(fixture, "token", "\n\n")
        #expect(fixture.problem(Self.single, ref) == .valueEmpty)
    }

    @Test func theFileMustBeARegularFileOnlyItsOwnerCanReadOrWrite() throws {
        let fixture = SecretFixture()
        let ref = SecretRef(source: .file, provider: "one", id: "value")
        let path = write(fixture, "token", "tok")
        #expect(try fixture.resolve(Self.single, ref) == "tok")
        // Execute bits do not matter; any read or write bit for group or others does.
        for mode: mode_t in [0o400, 0o700, 0o711] {
            chmod(path, mode)
            #expect(try fixture.resolve(Self.single, ref) == "tok", "mode \(String(mode, radix: 8))")
        }
        for mode: mode_t in [0o640, 0o620, 0o604, 0o602, 0o644, 0o666] {
            chmod(path, mode)
            #expect(fixture.problem(Self.single, ref) == .fileInsecurePermissions(path: path, permissions: UInt32(mode)),
                    "mode \(String(mode, radix: 8))")
        }
        chmod(path, 0o600)
        // A symbolic link is refused, even to a good file.
        let link = fixture.dir.sub("s/link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let linked = #"{secrets:{providers:{one:{source:"file",path:"~/s/link",mode:"singleValue"}}}}"#
        #expect(fixture.problem(linked, ref) == .fileIsSymbolicLink(path: link))
        // A directory, a FIFO: not regular files (the FIFO is not waited on).
        fixture.dir.mkdir("s/dir")
        chmod(fixture.dir.sub("s/dir"), 0o700)
        let directory = #"{secrets:{providers:{one:{source:"file",path:"~/s/dir",mode:"singleValue"}}}}"#
        #expect(fixture.problem(directory, ref) == .fileNotRegular(path: fixture.dir.sub("s/dir")))
        #expect(mkfifo(fixture.dir.sub("s/fifo"), 0o600) == 0)
        let fifo = #"{secrets:{providers:{one:{source:"file",path:"~/s/fifo",mode:"singleValue"}}}}"#
        #expect(fixture.problem(fifo, ref) == .fileNotRegular(path: fixture.dir.sub("s/fifo")))
        // Missing.
        let missing = #"{secrets:{providers:{one:{source:"file",path:"~/s/none",mode:"singleValue"}}}}"#
        #expect(fixture.problem(missing, ref) == .fileUnreadable(path: fixture.dir.sub("s/none"), reason: "No such file or directory"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func aFileOwnedBySomeoneElseIsRefused() throws {
        let fixture = SecretFixture()
        let ref = SecretRef(source: .file, provider: "one", id: "value")
        let path = write(fixture, "token", "tok")
        #expect(chown(path, 65534, 65534) == 0)
        #expect(fixture.problem(Self.single, ref) == .fileNotOwned(path: path, owner: 65534, user: 0))
    }

    @Test func sizeLimitAndShape() throws {
        let fixture = SecretFixture()
        let ref = SecretRef(source: .file, provider: "small", id: "/t")
        let path = write(fixture, "secrets.json", #"{"t":"0123456789"}"#)
        let small = #"{secrets:{providers:{small:{source:"file",path:"~/s/secrets.json",maxBytes:16}}}}"#
        #expect(fixture.problem(small, ref) == .fileTooLarge(path: path, limit: 16))
        let enough = #"{secrets:{providers:{small:{source:"file",path:"~/s/secrets.json",maxBytes:18}}}}"#
        #expect(try fixture.resolve(enough, ref) == "0123456789")
        write(fixture, "secrets.json", "[1]")
        #expect(fixture.problem(enough, ref) == .fileNotJSONObject(path: path))
        write(fixture, "secrets.json", "tok")
        #expect(fixture.problem(enough, ref) == .fileNotJSONObject(path: path))
    }

    @Test func theProviderEntryIsCheckedStrictly() throws {
        let fixture = SecretFixture()
        let ref = SecretRef(source: .file, provider: "f", id: "/t")
        let cases: [(String, SecretProblem)] = [
            (#"{}"#, .providerNotConfigured),
            (#"{secrets:{providers:{f:{source:"exec",command:"/bin/true"}}}}"#, .providerSourceMismatch(configured: "exec")),
            (#"{secrets:{providers:{f:{source:"file"}}}}"#, .providerInvalid("secrets.providers.f.path must be a file path")),
            (#"{secrets:{providers:{f:{source:"file",path:"/x",allowInsecurePath:true}}}}"#,
             .providerInvalid("secrets.providers.f has an unknown field \"allowInsecurePath\"")),
            (#"{secrets:{providers:{f:{source:"file",path:"/x",mode:"yaml"}}}}"#,
             .providerInvalid("secrets.providers.f.mode must be \"json\" or \"singleValue\"")),
            (#"{secrets:{providers:{f:{source:"file",path:"/x",timeoutMs:120001}}}}"#,
             .providerInvalid("secrets.providers.f.timeoutMs must be a whole number from 1 to 120000")),
            (#"{secrets:{providers:{f:{source:"file",path:"/x",maxBytes:0}}}}"#,
             .providerInvalid("secrets.providers.f.maxBytes must be a whole number from 1 to 20971520")),
            (#"{secrets:{providers:{f:"nope"}}}"#, .providerInvalid("secrets.providers.f must be an object")),
        ]
        for (config, expected) in cases {
            #expect(fixture.problem(config, ref) == expected, "\(config)")
        }
    }

    /// Only the default env alias (and the default store alias) work without an entry.
    @Test func builtInProvidersAndAllowlists() throws {
        let fixture = SecretFixture()
        let env = { (provider: String, id: String) in SecretRef(source: .env, provider: provider, id: id) }
        #expect(try fixture.resolve("{}", env("default", "GW_T"), environment: ["GW_T": " t "]) == "t")
        #expect(fixture.problem("{}", env("default", "GW_T")) == .variableUnset)
        #expect(fixture.problem("{}", env("default", "GW_T"), environment: ["GW_T": ""]) == .variableUnset)
        #expect(fixture.problem("{}", env("other", "GW_T"), environment: ["GW_T": "t"]) == .providerNotConfigured)
        // secrets.defaults.env renames the built-in alias.
        let renamed = #"{secrets:{defaults:{env:"shell"}}}"#
        #expect(try fixture.resolve(renamed, env("shell", "GW_T"), environment: ["GW_T": "t"]) == "t")
        #expect(fixture.problem(renamed, env("default", "GW_T"), environment: ["GW_T": "t"]) == .providerNotConfigured)
        let listed = #"{secrets:{providers:{default:{source:"env",allowlist:["GW_T"]}}}}"#
        #expect(try fixture.resolve(listed, env("default", "GW_T"), environment: ["GW_T": "t"]) == "t")
        #expect(fixture.problem(listed, env("default", "GW_U"), environment: ["GW_U": "u"]) == .notAllowlisted)
        // No file or exec provider is built in.
        #expect(fixture.problem("{}", SecretRef(source: .file, provider: "default", id: "/t")) == .providerNotConfigured)
        #expect(fixture.problem("{}", SecretRef(source: .exec, provider: "default", id: "t")) == .providerNotConfigured)
        // The store: a missing database holds no secrets.
        #expect(fixture.problem("{}", SecretRef(source: .store, provider: "default", id: "GW_T")) == .storedSecretNotFound)
    }
}
