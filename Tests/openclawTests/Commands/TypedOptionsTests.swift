@_spi(Engine) import ClawSession
import Testing
@_spi(Engine) import ClawSystem
@testable import openclaw

/// The parser fills one typed value per command from the table's key-path bindings.
@Suite struct TypedOptionsTests {
    @Test func globalOptionsAreTyped() throws {
        let options = try ArgumentParser.parse([
            "-u", "ws://h:1", "--token-file", "-", "-s", "work", "--timeout", "2.5", "--connect-timeout", "3",
            "-o", "text", "--raw", "--trace", "-q", "--state-dir", "/s", "--config", "/c", "--no-device",
            "--scope", "a", "--scope", "b", "--tls-fingerprint", "AB", "--cacert", "/ca", "--profile", "work", "--dev",
            "--retry-connrefused", "--wait-for-pairing", "history",
        ]).options.global
        var expected = GlobalOptions()
        expected.url = "ws://h:1"
        expected.tokenFile = "-"
        expected.session = "work"
        expected.timeout = 2.5
        expected.connectTimeout = 3
        expected.output = .text
        expected.raw = true
        expected.trace = true
        expected.quiet = true
        expected.stateDirectory = "/s"
        expected.config = "/c"
        expected.noDevice = true
        expected.scopes = ["a", "b"]
        expected.tlsFingerprint = "AB"
        expected.caBundle = "/ca"
        expected.profile = "work"
        expected.dev = true
        expected.retryConnectionRefused = true
        expected.waitForPairing = true
        #expect(options == expected)
    }

    /// `--dev` is the profile `dev`; with another `--profile` it is a usage error, as in the official CLI.
    @Test func devIsTheDevProfile() throws {
        #expect(try ConnectionSetup.profile(ArgumentParser.parse(["history", "--dev"]).options.global) == "dev")
        #expect(try ConnectionSetup.profile(ArgumentParser.parse(["history", "--profile", "dev", "--dev"]).options.global) == "dev")
        #expect(try ConnectionSetup.profile(ArgumentParser.parse(["history", "--profile=work"]).options.global) == "work")
        #expect(try ConnectionSetup.profile(ArgumentParser.parse(["history"]).options.global) == nil)
        #expect(throws: UsageError.self) {
            try ConnectionSetup.profile(ArgumentParser.parse(["--dev", "history", "--profile", "work"]).options.global)
        }
    }

    /// OPENCLAW_HANDSHAKE_TIMEOUT_MS: digits only and positive, or ignored.
    @Test func handshakeTimeoutVariable() {
        func parse(_ text: String?) -> Int? {
            SessionOptions.handshakeTimeoutMilliseconds(Environment(text.map { ["OPENCLAW_HANDSHAKE_TIMEOUT_MS": $0] } ?? [:]))
        }
        #expect(parse("2500") == 2500)
        #expect(parse("000100") == 100)
        for ignored in [nil, "", "0", "-5", "1.5", "3e3", " 100", "100ms", "0x10", "99999999999999999999"] {
            #expect(parse(ignored) == nil, "\(ignored ?? "unset")")
        }
    }

    @Test func eachCommandGetsItsOwnValue() throws {
        #expect(try ArgumentParser.parse(["history", "-n", "7"]).options.history == HistoryOptions(limit: 7))
        let send = try ArgumentParser.parse(["send", "-f", "m", "--attach", "a", "--attach", "b", "--idempotency-key", "k",
                                             "--deliver", "--no-wait", "--agent-events", "--thinking", "low"]).options.send
        #expect(send == SendOptions(file: "m", thinking: "low", deliver: true, attachments: ["a", "b"], idempotencyKey: "k",
                                    noWait: true, agentEvents: true))
        #expect(try ArgumentParser.parse(["abort", "--run", "r"]).options.abort == AbortOptions(run: "r"))
        let watch = try ArgumentParser.parse(["watch", "-e", "chat", "-e", "agent", "--count", "3", "--max-retries", "0",
                                              "--backoff-base", "0.5", "--backoff-max", "4", "--client-events"]).options.watch
        #expect(watch == WatchOptions(events: ["chat", "agent"], count: 3, maxRetries: 0, backoffBase: 0.5, backoffMax: 4,
                                      clientEvents: true))
        #expect(try ArgumentParser.parse(["call", "--batch", "--expect-final"]).options.call == CallOptions(expectFinal: true, batch: true))
    }

    @Test func laterValuesOverrideEarlierOnes() throws {
        let options = try ArgumentParser.parse(["history", "-n", "3", "--limit", "9", "-o", "text", "-o", "ndjson"]).options
        #expect(options.history.limit == 9)
        #expect(options.global.output == .ndjson)
    }

    @Test func everyBindingMatchesItsValueKind() {
        for flag in CommandTable.allFlags {
            switch (flag.binding, flag.value) {
            case (.toggle, .none), (.integer, .integer), (.seconds, .seconds), (.format, .choice), (.text, .choice): continue
            case (.text, .text), (.text, .file), (.text, .directory), (.texts, .text), (.texts, .file): continue
            default: Issue.record("--\(flag.long): binding and value kind disagree")
            }
        }
    }

    @Test func theTableHoldsHandlersTimeoutsAndPositionals() throws {
        #expect(CommandTable.command(named: "send")?.defaultTimeout == 600)
        #expect(CommandTable.command(named: "watch")?.defaultTimeout == 0)
        #expect(CommandTable.command(named: "history")?.defaultTimeout == 30)
        #expect(CommandTable.command(named: "send")?.positionals == .message)
        #expect(CommandTable.command(named: "call")?.positionals == .methodAndParams)
        #expect(CommandTable.command(named: "abort")?.positionals == Positionals.none)
        let output = try #require(CommandTable.globalFlags.first { $0.long == "output" })
        #expect(output.value == .choice(OutputFormat.allCases.map(\.rawValue)))
    }
}
