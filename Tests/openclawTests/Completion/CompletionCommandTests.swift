import Foundation
import Testing

/// `openclaw completion SHELL` and the committed scripts it must reproduce.
@Suite("Completion command")
struct CompletionCommandTests {
    @Test("the committed completions/ files are exactly what the binary prints", arguments: [
        ("bash", "openclaw.bash"), ("zsh", "_openclaw"), ("fish", "openclaw.fish"),
    ])
    func committedScriptsAreCurrent(shell: String, file: String) throws {
        let printed = try DocsTestSupport.run(DocsTestSupport.openclawBinary(), ["completion", shell])
        #expect(printed.status == 0)
        #expect(printed.stderr.isEmpty)
        let committed = try String(
            contentsOf: DocsTestSupport.repository.appendingPathComponent("completions/\(file)"), encoding: .utf8)
        #expect(printed.stdout == committed, "completions/\(file) is stale: run `make completions` and commit")
    }

    @Test("each script is the right kind for its shell and registers for openclaw")
    func scriptHeaders() throws {
        let binary = try DocsTestSupport.openclawBinary()
        #expect(try DocsTestSupport.run(binary, ["completion", "zsh"]).stdout.hasPrefix("#compdef openclaw\n"))
        #expect(try DocsTestSupport.run(binary, ["completion", "bash"]).stdout.contains("complete -F _openclaw openclaw"))
        #expect(try DocsTestSupport.run(binary, ["completion", "fish"]).stdout.contains("complete -c openclaw -f\n"))
    }

    @Test("each script parses in its shell")
    func scriptsParse() throws {
        let directory = DocsTestSupport.repository.appendingPathComponent("completions")
        for (shell, file) in [("bash", "openclaw.bash"), ("zsh", "_openclaw"), ("fish", "openclaw.fish")] {
            let result = try DocsTestSupport.run(
                DocsTestSupport.program(shell), ["-n", directory.appendingPathComponent(file).path])
            #expect(result.status == 0, "\(shell): \(result.stderr)")
        }
    }

    @Test("a missing, unknown or extra shell argument is a usage error naming the choices", arguments: [
        [], ["tcsh"], ["bash", "zsh"], ["BASH"],
    ])
    func badShell(arguments: [String]) throws {
        let result = try DocsTestSupport.run(DocsTestSupport.openclawBinary(), ["completion"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("openclaw: error: "))
        if arguments.count != 2 { #expect(result.stderr.contains("bash, zsh, fish"), "\(result.stderr)") }
    }

    @Test("the hidden man page generator is not offered by any script")
    func hiddenGeneratorNotCompleted() throws {
        for file in ["openclaw.bash", "_openclaw", "openclaw.fish"] {
            let text = try String(
                contentsOf: DocsTestSupport.repository.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            #expect(!text.contains("__man"), "\(file)")
        }
    }
}
