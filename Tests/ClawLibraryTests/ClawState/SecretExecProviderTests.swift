import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

/// The `exec` provider with real scripts (mode 0700, owned by the test user): the command checks, the
/// request on stdin, the scrubbed environment, the reply in both modes, and every way it can fail,
/// each leaving no process behind.
@Suite struct SecretExecProviderTests {
    static let ref = SecretRef(source: .exec, provider: "vault", id: "gateway/token")

    /// A config whose provider `vault` runs `command` with `extra` fields.
    static func config(_ command: String, _ extra: String = "") -> String {
        #"{secrets:{providers:{vault:{source:"exec",command:"\#(command)"\#(extra.isEmpty ? "" : "," + extra)}}}}"#
    }

    @Test func aJSONReplyGivesTheValueAndTheRequestArrivesOnStdin() throws {
        let fixture = SecretFixture()
        let request = fixture.dir.sub("request")
        let script = ProcessTestSupport.script(fixture.dir, "bin/vault", """
            cat > "\(request)"
            printf '{"protocolVersion":1,"values":{"gateway/token":"exec-tok"}}'
            """)
        #expect(try fixture.resolve(Self.config(script), Self.ref) == "exec-tok")
        let sent = try JSONValue.parse(try String(contentsOfFile: request, encoding: .utf8))
        #expect(sent == ["protocolVersion": 1, "provider": "vault", "ids": ["gateway/token"]])
        #expect(try String(contentsOfFile: request, encoding: .utf8).hasSuffix("}\n"))
    }

    @Test func theCommandRunsInItsDirectoryWithOnlyPassEnvAndEnv() throws {
        let fixture = SecretFixture()
        let seen = fixture.dir.sub("seen")
        let script = ProcessTestSupport.script(fixture.dir, "bin/vault", """
            printf '%s|%s|%s|%s|%s\\n' "$(pwd)" "${PASSED-unset}" "${PARENT_ONLY-unset}" "${SET_HERE-unset}" "${HOME-unset}" > "\(seen)"
            printf '{"protocolVersion":1,"values":{"gateway/token":"t"}}'
            """)
        let config = Self.config(script, #"passEnv:["PASSED","NOT_SET_ANYWHERE"],env:{SET_HERE:"from-config",PASSED:"overridden"}"#)
        _ = try fixture.resolve(config, Self.ref, environment: ["PASSED": "from-parent", "PARENT_ONLY": "secret-parent"])
        let line = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(line == "\(fixture.dir.sub("bin"))|overridden|unset|from-config|unset\n")
        let passOnly = Self.config(script, #"passEnv:["PASSED","HOME"]"#)
        _ = try fixture.resolve(passOnly, Self.ref, environment: ["PASSED": "from-parent"])
        #expect(try String(contentsOfFile: seen, encoding: .utf8) == "\(fixture.dir.sub("bin"))|from-parent|unset|unset|\(fixture.dir.path)\n")
    }

    @Test func withoutJSONOnlyPlainOutputIsTheValue() throws {
        let fixture = SecretFixture()
        let plain = ProcessTestSupport.script(fixture.dir, "bin/plain", "echo '  raw-tok  '")
        #expect(try fixture.resolve(Self.config(plain, "jsonOnly:false"), Self.ref) == "raw-tok")
        // With jsonOnly (the default) plain text is not a reply.
        #expect(fixture.problem(Self.config(plain), Self.ref) == .invalidResponse("stdout is not JSON"))
        let string = ProcessTestSupport.script(fixture.dir, "bin/string", #"echo '"json-string-tok"'"#)
        #expect(try fixture.resolve(Self.config(string, "jsonOnly:false"), Self.ref) == "json-string-tok")
        #expect(fixture.problem(Self.config(string), Self.ref) == .invalidResponse("stdout is not a JSON object"))
        let object = ProcessTestSupport.script(fixture.dir, "bin/object",
                                               #"echo '{"protocolVersion":1,"values":{"gateway/token":"obj-tok"}}'"#)
        #expect(try fixture.resolve(Self.config(object, "jsonOnly:false"), Self.ref) == "obj-tok")
    }

    @Test func repliesThatFailTheID() throws {
        let fixture = SecretFixture()
        let cases: [(String, SecretProblem)] = [
            (#"{"protocolVersion":1,"values":{},"errors":{"gateway/token":{"code":"NOT_FOUND","message":"SEKRET-detail"}}}"#,
             .providerError(code: "NOT_FOUND")),
            (#"{"protocolVersion":1,"values":{},"errors":{"gateway/token":{"code":"VAULT_SEALED","message":"SEKRET-detail"}}}"#,
             .providerError(code: nil)),
            (#"{"protocolVersion":1,"values":{"other":"x"}}"#, .idMissingFromResponse),
            (#"{"protocolVersion":2,"values":{"gateway/token":"x"}}"#, .invalidResponse("protocolVersion is not 1")),
            (#"{"protocolVersion":1}"#, .invalidResponse("values is not an object")),
            (#"{"protocolVersion":1,"values":{"gateway/token":5}}"#, .valueNotAString),
            (#"{"protocolVersion":1,"values":{"gateway/token":"  "}}"#, .valueEmpty),
        ]
        for (index, (reply, expected)) in cases.enumerated() {
            let script = ProcessTestSupport.script(fixture.dir, "bin/reply\(index)", "printf '%s' '\(reply)'")
            #expect(fixture.problem(Self.config(script), Self.ref) == expected, "\(reply)")
        }
        let silent = ProcessTestSupport.script(fixture.dir, "bin/silent", "echo 'SEKRET-on-stderr' >&2")
        #expect(fixture.problem(Self.config(silent), Self.ref) == .emptyOutput)
        let failing = ProcessTestSupport.script(fixture.dir, "bin/failing", "echo 'SEKRET-on-stderr' >&2\nexit 3")
        #expect(fixture.problem(Self.config(failing), Self.ref) == .exited(code: 3))
        let killed = ProcessTestSupport.script(fixture.dir, "bin/killed", "kill -KILL $$")
        #expect(fixture.problem(Self.config(killed), Self.ref) == .killedBySignal(SIGKILL))
    }

    /// The command sleeps (and starts another sleeper): the limit stops both, and nothing is left.
    @Test func aCommandThatOverstaysIsStoppedWithEverythingItStarted() throws {
        let fixture = SecretFixture()
        let pids = fixture.dir.sub("pids")
        let script = ProcessTestSupport.script(fixture.dir, "bin/slow", """
            sleep 60 &
            echo $! >> "\(pids)"
            echo $$ >> "\(pids)"
            wait
            """)
        #expect(fixture.problem(Self.config(script, "timeoutMs:300"), Self.ref) == .timedOut(milliseconds: 300))
        let started = ProcessTestSupport.waitForPIDs(in: pids, count: 2)
        #expect(started.count == 2)
        #expect(ProcessTestSupport.waitUntilGone(started), "still running: \(started)")
    }

    /// A command that leaves a helper holding its stdout (`sleep 30 &`) and exits: its reply counts, at
    /// once, rather than a timeout for output that never ends.
    @Test func aCommandThatExitsWhileAHelperHoldsItsStdoutIsJudgedByItsExit() throws {
        let fixture = SecretFixture()
        let pids = fixture.dir.sub("pids")
        let script = ProcessTestSupport.script(fixture.dir, "bin/leaves-a-helper", """
            sleep 30 &
            echo $! >> "\(pids)"
            printf '{"protocolVersion":1,"values":{"gateway/token":"exec-tok"}}'
            """)
        defer { for pid in ProcessTestSupport.waitForPIDs(in: pids, count: 1) { kill(pid, SIGKILL) } }
        #expect(try fixture.resolve(Self.config(script, "timeoutMs:20000,noOutputTimeoutMs:20000"), Self.ref) == "exec-tok")
        // A failing exit is still a failure, not a timeout.
        let failing = ProcessTestSupport.script(fixture.dir, "bin/fails-with-a-helper", """
            sleep 30 &
            echo $! >> "\(pids)"
            exit 4
            """)
        #expect(fixture.problem(Self.config(failing, "timeoutMs:20000,noOutputTimeoutMs:20000"), Self.ref) == .exited(code: 4))
    }

    @Test func aCommandThatGoesSilentIsStopped() throws {
        let fixture = SecretFixture()
        let pids = fixture.dir.sub("pids")
        let script = ProcessTestSupport.script(fixture.dir, "bin/quiet", """
            echo $$ >> "\(pids)"
            printf '{"protocolVersion":1,'
            exec sleep 60
            """)
        #expect(fixture.problem(Self.config(script, "timeoutMs:60000,noOutputTimeoutMs:200"), Self.ref)
                == .noOutputTimedOut(milliseconds: 200))
        #expect(ProcessTestSupport.waitUntilGone(ProcessTestSupport.waitForPIDs(in: pids, count: 1)))
    }

    @Test func tooMuchOutputIsStopped() throws {
        let fixture = SecretFixture()
        let script = ProcessTestSupport.script(fixture.dir, "bin/loud", "while :; do echo 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' >&2; done")
        #expect(fixture.problem(Self.config(script, "maxOutputBytes:4096"), Self.ref) == .outputTooLarge(limit: 4096))
    }

    @Test func theCommandPathIsChecked() throws {
        let fixture = SecretFixture()
        let good = ProcessTestSupport.script(fixture.dir, "bin/good", #"printf '{"protocolVersion":1,"values":{"gateway/token":"t"}}'"#)
        #expect(try fixture.resolve(Self.config(good), Self.ref) == "t")
        // `~` is the home; relative paths are refused.
        #expect(try fixture.resolve(Self.config("~/bin/good"), Self.ref) == "t")
        #expect(fixture.problem(Self.config("bin/good"), Self.ref) == .commandNotAbsolute("bin/good"))
        let missing = fixture.dir.sub("bin/missing")
        #expect(fixture.problem(Self.config(missing), Self.ref) == .commandUnusable(path: missing, reason: "No such file or directory"))
        let link = fixture.dir.sub("bin/link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: good)
        #expect(fixture.problem(Self.config(link), Self.ref) == .commandIsSymbolicLink(path: link))
        #expect(fixture.problem(Self.config(fixture.dir.sub("bin")), Self.ref) == .commandNotRegular(path: fixture.dir.sub("bin")))
        for mode: mode_t in [0o720, 0o702, 0o777] {
            chmod(good, mode)
            #expect(fixture.problem(Self.config(good), Self.ref) == .commandWritableByOthers(path: good, permissions: UInt32(mode)))
        }
        chmod(good, 0o755)  // readable and executable by others is fine
        #expect(try fixture.resolve(Self.config(good), Self.ref) == "t")
        // trustedDirs: the command must be inside one.
        #expect(try fixture.resolve(Self.config(good, #"trustedDirs:["~/bin"]"#), Self.ref) == "t")
        #expect(fixture.problem(Self.config(good, #"trustedDirs:["~/bi","/usr/bin"]"#), Self.ref)
                == .commandOutsideTrustedDirectories(path: good))
    }

    @Test(.notUnderQEMU("qemu-user's posix_spawn reports success for a non-executable program; the child exits 127"))
    func aCommandThatCannotStartIsReported() throws {
        let fixture = SecretFixture()
        let plain = ProcessTestSupport.script(fixture.dir, "bin/plain", #"printf '{"protocolVersion":1,"values":{"gateway/token":"t"}}'"#, mode: 0o600)
        #expect(fixture.problem(Self.config(plain), Self.ref) == .commandFailedToStart(path: plain, reason: "Permission denied"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func aCommandOwnedBySomeoneElseIsRefused() throws {
        let fixture = SecretFixture()
        let script = ProcessTestSupport.script(fixture.dir, "bin/theirs", "echo x")
        #expect(chown(script, 65534, 65534) == 0)
        #expect(fixture.problem(Self.config(script), Self.ref) == .commandNotOwned(path: script, owner: 65534, user: 0))
    }

    @Test func theProviderEntryIsCheckedStrictly() throws {
        let fixture = SecretFixture()
        let cases: [(String, SecretProblem)] = [
            (#"{secrets:{providers:{vault:{source:"exec"}}}}"#,
             .providerInvalid("secrets.providers.vault.command must be the absolute path of a program")),
            (Self.config("/bin/true", "allowSymlinkCommand:true"),
             .providerInvalid("secrets.providers.vault has an unknown field \"allowSymlinkCommand\"")),
            (Self.config("/bin/true", "timeoutMs:0"), .providerInvalid("secrets.providers.vault.timeoutMs must be a whole number from 1 to 120000")),
            (Self.config("/bin/true", "noOutputTimeoutMs:1.5"),
             .providerInvalid("secrets.providers.vault.noOutputTimeoutMs must be a whole number from 1 to 120000")),
            (Self.config("/bin/true", "maxOutputBytes:20971521"),
             .providerInvalid("secrets.providers.vault.maxOutputBytes must be a whole number from 1 to 20971520")),
            (Self.config("/bin/true", "jsonOnly:\"yes\""), .providerInvalid("secrets.providers.vault.jsonOnly must be true or false")),
            (Self.config("/bin/true", #"passEnv:["BAD-NAME"]"#),
             .providerInvalid("secrets.providers.vault.passEnv must list environment variable names (\"BAD-NAME\" is not one)")),
            (Self.config("/bin/true", #"trustedDirs:["relative"]"#),
             .providerInvalid("secrets.providers.vault.trustedDirs must list absolute directories")),
            (Self.config("/bin/true", #"env:{A:1}"#), .providerInvalid("secrets.providers.vault.env must be an object of strings")),
            (Self.config("/bin/true", "args:[\"" + String(repeating: "a", count: 1025) + "\"]"),
             .providerInvalid("secrets.providers.vault.args must be a list of strings of at most 1024 characters")),
            (#"{secrets:{providers:{vault:{source:"exec",pluginIntegration:{pluginId:"cf",integrationId:"t"}}}}}"#,
             .pluginProviderUnsupported),
        ]
        for (config, expected) in cases {
            #expect(fixture.problem(config, Self.ref) == expected, "\(config)")
        }
    }

    @Test func argumentsArePassedWithoutAShell() throws {
        let fixture = SecretFixture()
        let script = ProcessTestSupport.script(fixture.dir, "bin/args", #"printf '{"protocolVersion":1,"values":{"gateway/token":"%s"}}' "$1$2""#)
        #expect(try fixture.resolve(Self.config(script, #"args:["$HOME", "; x"]"#), Self.ref) == "$HOME; x")
    }

    @Test func aSignalWhileTheCommandRunsStopsIt() throws {
        let fixture = SecretFixture()
        let pids = fixture.dir.sub("pids")
        let script = ProcessTestSupport.script(fixture.dir, "bin/slow", "echo $$ >> \"\(pids)\"\nexec sleep 60")
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        // The "signal" arrives once the command is running (its pid written).
        let writeEnd = fds[1]
        let signaller = Thread {
            _ = ProcessTestSupport.waitForPIDs(in: pids, count: 1)
            var byte: UInt8 = 15
            _ = write(writeEnd, &byte, 1)
        }
        signaller.start()
        #expect(throws: ConfigError.secretResolutionInterrupted(key: "gateway.auth.token", path: fixture.dir.sub("openclaw.json"),
                                                                ref: Self.ref)) {
            try fixture.resolve(Self.config(script, "timeoutMs:60000"), Self.ref, interrupt: fds[0])
        }
        let started = ProcessTestSupport.waitForPIDs(in: pids, count: 1)
        #expect(started.count == 1)
        #expect(ProcessTestSupport.waitUntilGone(started))
    }
}
