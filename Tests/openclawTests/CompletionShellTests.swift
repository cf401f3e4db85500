import Foundation
import Testing

/// The committed completion scripts, run in bash (with and without bash-completion), zsh and fish.
@Suite("Completion in real shells")
struct CompletionShellTests {
    @Test("openclaw wa<TAB> completes to watch", arguments: CompletionShell.allCases)
    func commandPrefix(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw wa") == ["watch"])
    }

    @Test("openclaw <TAB> offers the visible commands only", arguments: CompletionShell.allCases)
    func commandNames(shell: CompletionShell) throws {
        let offered = Set(try shell.candidates(for: "openclaw "))
        #expect(offered == ["history", "send", "abort", "watch", "call", "completion", "help", "version"])
    }

    @Test("openclaw send --out<TAB> completes to --output", arguments: CompletionShell.allCases)
    func longFlagPrefix(shell: CompletionShell) throws {
        #expect(try shell.candidates(for: "openclaw send --out") == ["--output"])
    }

    @Test("--output <TAB> offers ndjson and text", arguments: CompletionShell.allCases)
    func choiceValues(shell: CompletionShell) throws {
        #expect(Set(try shell.candidates(for: "openclaw send --output ")) == ["ndjson", "text"])
        #expect(Set(try shell.candidates(for: "openclaw -qo ")) == ["ndjson", "text"])
    }

    @Test("openclaw history -<TAB> lists history's and the global flags, not send's", arguments: CompletionShell.allCases)
    func flagsOfOneCommand(shell: CompletionShell) throws {
        let offered = Set(try shell.candidates(for: "openclaw history -"))
        #expect(offered == DocsTestSupport.historyFlags.union(DocsTestSupport.globalFlags))
        #expect(offered.isDisjoint(with: DocsTestSupport.sendFlags))
    }

    @Test("flags given before the command, with values, do not hide it", arguments: CompletionShell.allCases)
    func commandAfterGlobalFlags(shell: CompletionShell) throws {
        #expect(Set(try shell.candidates(for: "openclaw -s main --timeout 5 send --no-")) == ["--no-wait", "--no-device"])
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
