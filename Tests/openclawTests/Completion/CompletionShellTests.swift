import Foundation
import Testing

/// The committed completion scripts, run in bash (with and without bash-completion), zsh and fish.
@Suite("Completion in real shells")
struct CompletionShellTests {
    @Test("openclaw wa<TAB> completes to watch", arguments: CompletionShell.allCases)
    func commandPrefix(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw wa") == ["watch"])
    }

    @Test("openclaw <TAB> offers our visible commands, and no official word without the official CLI", arguments: CompletionShell.allCases)
    func commandNames(shell: CompletionShell) throws {
        let offered = Set(try shell.candidates(for: "openclaw "))
        let ours: Set = ["history", "send", "abort", "watch", "call", "gateway", "agent", "sessions", "logs", "health", "system",
                         "cron", "automations", "completion", "help", "version"]
        // The official CLI's words come only when that CLI is on PATH (here it is not).
        #expect(offered == ours)
        #expect(!offered.contains("__man") && !offered.contains("__session-keys"))
    }

    @Test("the official CLI's commands are offered when it is on PATH, after ours", arguments: CompletionShell.allCases)
    func officialWordsWhenTheOfficialCLIIsThere(shell: CompletionShell) throws {
        // Ours first on PATH, a stand-in official CLI after it: `openclaw version` finds it.
        let ours = try DocsTestSupport.temporaryDirectory(), official = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: ours); try? FileManager.default.removeItem(at: official) }
        try FileManager.default.createSymbolicLink(at: ours.appendingPathComponent("openclaw"), withDestinationURL: BuiltProducts.executable("openclaw"))
        try DocsTestSupport.write("#!/bin/sh\nexit 0\n", to: official.appendingPathComponent("openclaw"), executable: true)
        let offered = Set(try shell.candidates(for: "openclaw ", path: URL(fileURLWithPath: ours.path + ":" + official.path)))
        #expect(offered.isSuperset(of: try officialCommandsFromHelp()) && offered.contains("send") && offered.contains("doctor"))
        let alone = Set(try shell.candidates(for: "openclaw ", path: ours))
        #expect(!alone.contains("doctor") && alone.contains("send"))
    }

    /// A key with a space, and one with `,{}"`, each completes as one quoted word, from the gateway the
    /// line names (`--url`, `--token`): the real binary against the simulator.
    @Test("bash completes keys with spaces and quotes as single quoted words, from the --url on the line")
    func sessionKeysAreQuotedAndFromTheLinesGateway() throws {
        let gateway = try GatewayFixture()
        for key in ["my session", #"odd,{key}"q"#] {
            #expect(try gateway.run(["send", "--no-wait", "-s", key, "hi"]).status == 0)
        }
        let bin = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("openclaw"), withDestinationURL: BuiltProducts.executable("openclaw"))
        let line = "openclaw --url \(gateway.simulator.url) --token \(GatewayFixture.token) history --session "
        for shell in [CompletionShell.bash, .bashWithoutBashCompletion] {
            #expect(try shell.candidates(for: line + "my", path: bin) == [#"my\ session"#])
            #expect(try shell.candidates(for: line + "od", path: bin) == [#"odd\,\{key\}\"q"#])
            // Without the line's --url there is no gateway to ask (none configured): nothing, silently.
            #expect(try shell.candidates(for: "openclaw history --session my", path: bin) == [])
        }
    }

    /// A command that takes free text (send's message, call's method) must not keep zsh from
    /// inserting the one flag that matches: a bare message action makes it list instead.
    @Test("zsh completes --ses to --session= in one TAB, for every command")
    func zshCompletesAFlagInOneTab() throws {
        for command in ["history", "send", "call", "abort"] {
            #expect(try CompletionShell.zshLineAfterOneTab("openclaw \(command) --ses") == "openclaw \(command) --session=")
        }
        // Free text is still free: a word that is not a flag is left as typed.
        #expect(try CompletionShell.zshLineAfterOneTab("openclaw send hel") == "openclaw send hel")
    }

    @Test("after a command of the official CLI nothing of ours is offered", arguments: CompletionShell.allCases)
    func nothingAfterAnOfficialCommand(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw doctor --").isEmpty)
        #expect(try shell.candidates(for: "openclaw --quiet doctor -").isEmpty)
        #expect(try shell.candidates(for: "openclaw doctor ").filter { !$0.hasPrefix("/") && !$0.contains(".") }.isEmpty)
    }

    @Test("gateway <TAB> offers call", arguments: CompletionShell.allCases)
    func gatewayOffersCall(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw gateway ") == ["call"])
    }

    @Test("openclaw send --out<TAB> completes to --output", arguments: CompletionShell.allCases)
    func longFlagPrefix(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw send --out") == ["--output"])
    }

    @Test("--output <TAB> offers ndjson and text", arguments: CompletionShell.allCases)
    func choiceValues(shell: CompletionShell) throws {
        #expect(Set(try shell.candidates(for: "openclaw send --output ")) == ["ndjson", "text"])
        #expect(Set(try shell.candidates(for: "openclaw -qo ")) == ["ndjson", "text"])
        #expect(Set(try shell.candidates(for: "openclaw --log-level ")) == ["silent", "fatal", "error", "warn", "info", "debug", "trace"])
    }

    @Test("openclaw history -<TAB> lists history's and the global flags, not send's", arguments: CompletionShell.allCases)
    func flagsOfOneCommand(shell: CompletionShell) throws {
        let offered = Set(try shell.candidates(for: "openclaw history -"))
        #expect(offered == DocsTestSupport.historyFlags.union(DocsTestSupport.globalFlags))
        #expect(offered.isDisjoint(with: DocsTestSupport.sendFlags))
    }

    @Test("flags given before the command, with values, do not hide it", arguments: CompletionShell.allCases)
    func commandAfterGlobalFlags(shell: CompletionShell) throws {
        #expect(Set(try shell.candidates(for: "openclaw -s main --timeout 5 send --no-")) == ["--no-wait", "--no-device", "--no-color"])
        // The official CLI's global options with their values, as clawmonitor writes them.
        #expect(Set(try shell.candidates(for: "openclaw --log-level silent --container box send --no-w")) == ["--no-wait"])
    }

    @Test("openclaw completion <TAB> offers the shells", arguments: CompletionShell.allCases)
    func shells(shell: CompletionShell) throws {
        #expect(Set(try shell.candidates(for: "openclaw completion ")) == ["bash", "zsh", "fish"])
    }

    @Test("value-taking flags without a list offer nothing", arguments: CompletionShell.allCases)
    func freeTextValue(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw history --limit ") == [])
    }

    @Test("file flags complete files, --state-dir only directories", arguments: CompletionShell.allCases)
    func filesAndDirectories(shell: CompletionShell) throws {
        let directory = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try DocsTestSupport.write("x", to: directory.appendingPathComponent("alpha.txt"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("alps"), withIntermediateDirectories: false)
        let prefix = directory.path + "/al"
        for flag in ["send --file", "send --attach", "--token-file", "--cacert", "--config"] {
            let files = try shell.candidates(for: "openclaw \(flag) \(prefix)")
            #expect(files.contains { $0.hasSuffix("alpha.txt") }, "\(flag): \(files)")
        }
        let directories = try shell.candidates(for: "openclaw --state-dir \(prefix)")
        #expect(directories.contains { $0.hasSuffix("alps") || $0.hasSuffix("alps/") }, "\(directories)")
        #expect(!directories.contains { $0.hasSuffix("alpha.txt") }, "\(directories)")
    }

    @Test("--session <TAB> offers the gateway's session keys", arguments: CompletionShell.allCases)
    func sessionKeys(shell: CompletionShell) throws {
        let bin = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        try DocsTestSupport.fakeGatewayClient(in: bin, reachable: true)
        #expect(Set(try shell.candidates(for: "openclaw history --session ", path: bin)) == ["agent:main:main", "agent:main:work"])
    }

    @Test("an unreachable gateway makes --session offer nothing, silently", arguments: CompletionShell.allCases)
    func sessionKeysUnreachable(shell: CompletionShell) throws {
        let bin = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        try DocsTestSupport.fakeGatewayClient(in: bin, reachable: false)
        // candidates(for:) also fails when the shell wrote anything to stderr.
        #expect(try shell.candidates(for: "openclaw -s ", path: bin) == [])
    }
}

/// The official CLI's commands as `openclaw help` lists them (its own section), so the completion
/// test and the help text are held to the same list.
func officialCommandsFromHelp() throws -> Set<String> {
    let help = try DocsTestSupport.run(try DocsTestSupport.openclawBinary(), ["help"])
    let lines = help.lines.drop { !$0.hasPrefix("Commands of the official OpenClaw CLI") }.dropFirst()
    let names = lines.prefix { $0.hasPrefix("  ") }.flatMap { $0.split(separator: " ").map(String.init) }
    #expect(names.count > 20 && names.contains("doctor") && names.contains("onboard"), "\(help.stdout)")
    return Set(names)
}
