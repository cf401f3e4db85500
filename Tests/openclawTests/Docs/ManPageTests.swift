import Foundation
import Testing

/// man/openclaw.1: current with the command table, clean under mandoc's linter, renders with man(1).
@Suite("Man page")
struct ManPageTests {
    static var page: URL { DocsTestSupport.repository.appendingPathComponent("man/openclaw.1") }

    @Test("the committed man/openclaw.1 is exactly what the binary prints")
    func committedPageIsCurrent() throws {
        let printed = try DocsTestSupport.run(DocsTestSupport.openclawBinary(), ["__man"])
        #expect(printed.status == 0)
        #expect(printed.stderr.isEmpty)
        let committed = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(printed.stdout == committed, "man/openclaw.1 is stale: run `make man` and commit")
    }

    @Test("mandoc -Tlint reports nothing")
    func lintClean() throws {
        let result = try DocsTestSupport.run(DocsTestSupport.program("mandoc"), ["-Tlint", Self.page.path])
        #expect(result.status == 0)
        #expect(result.stdout + result.stderr == "")
    }

    @Test("--help's pointer for a source checkout works as written, run from the checkout")
    func helpPointsToThePageInACheckout() throws {
        let help = try DocsTestSupport.run(DocsTestSupport.openclawBinary(), ["--help"])
        let quoted = try #require(help.stdout.components(separatedBy: "in a source checkout: '").dropFirst().first?
            .components(separatedBy: "'").first)
        #expect(quoted == "man -l man/openclaw.1")
        let home = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = DocsTestSupport.shellEnvironment(home: home)
        environment["MANPAGER"] = "cat"
        let shell = "cd '\(DocsTestSupport.repository.path)' && exec \(quoted)"
        let result = try DocsTestSupport.run(URL(fileURLWithPath: "/bin/sh"), ["-c", shell], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("openclaw"))
        #expect(FileManager.default.fileExists(atPath: DocsTestSupport.repository.appendingPathComponent("docs/cli.md").path))
    }

    @Test("man -l renders every section, command and flag")
    func renders() throws {
        let home = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = DocsTestSupport.shellEnvironment(home: home)
        environment["MANPAGER"] = "cat"
        environment["MANWIDTH"] = "200"
        let result = try DocsTestSupport.run(DocsTestSupport.program("man"), ["-l", Self.page.path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES",
                        "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(text.contains("\n\(section)\n"), "section \(section)")
        }
        for command in ["history", "send [MESSAGE...]", "abort", "watch", "call METHOD [PARAMS]", "completion bash|zsh|fish"] {
            #expect(text.contains("   \(command)\n"), "command \(command)")
        }
        #expect(!text.contains("__man"))
        let flags = DocsTestSupport.globalFlags.union(DocsTestSupport.historyFlags).union(DocsTestSupport.sendFlags)
        for flag in flags { #expect(text.contains(flag), "flag \(flag)") }
        for name in ["OPENCLAW_GATEWAY_URL", "OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD", "OPENCLAW_STATE_DIR",
                     "OPENCLAW_CONFIG_PATH", "OPENCLAW_HOME", "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS", "OPENCLAW_SHELL",
                     "OPENCLAW_PROFILE", "OPENCLAW_HANDSHAKE_TIMEOUT_MS", "OPENCLAW_GATEWAY_PORT",
                     "~/.openclaw/openclaw.json", "identity/device.json", "identity/device-auth.json"] {
            #expect(text.contains(name), "\(name)")
        }
        // The older CLAWDBOT_* names are not read, and the page only mentions them to say so.
        #expect(!text.contains("CLAWDBOT_GATEWAY"))
        for status in ["0", "1", "2", "3", "4", "5", "6", "130", "143"] {
            #expect(text.range(of: "\n       \(status) ") != nil, "exit status \(status)")
        }
    }

    @Test("examples survive rendering as copyable ASCII: minus signs, quotes and the cron escape")
    func examplesAreCopyable() throws {
        let home = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try DocsTestSupport.run(
            DocsTestSupport.program("mandoc"), ["-Tutf8", "-O", "width=300", Self.page.path],
            environment: DocsTestSupport.shellEnvironment(home: home))
        #expect(result.status == 0)
        // Bold and underline are overstrikes (`c BS c`, `_ BS c`): keep the last character of each.
        var text = ""
        for character in result.stdout {
            if character == "\u{8}" { if !text.isEmpty { text.removeLast() } } else { text.append(character) }
        }
        #expect(text.contains(#"openclaw send "hi" | jq -r 'select(.event=="chat" and .payload.state=="final") | .payload.message.content[0].text'"#))
        #expect(text.contains("openclaw history -o text"))
        #expect(text.contains(#"0 8 * * * timeout 120 openclaw send --idempotency-key daily-$(date +\%F) "morning report" -q >/dev/null"#))
    }

    @Test("roff source: options use \\- , examples use \\(aq, no text line starts a request")
    func escaping() throws {
        let source = try String(contentsOf: Self.page, encoding: .utf8)
        let macros: Set<String> = [".TH", ".SH", ".SS", ".TP", ".PP", ".RS", ".RE", ".nf", ".fi", ".br", ".\\\""]
        var inExample = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".") || line.hasPrefix("'") {
                #expect(macros.contains(String(line.prefix(while: { $0 != " " }))), "unexpected request: \(line)")
                if line == ".nf" { inExample = true }
                if line == ".fi" { inExample = false }
                continue
            }
            // A hyphen that starts a word is an option or stdin: it must be a minus sign.
            var previous: Character = " "
            for character in line {
                if character == "-" && (previous == " " || previous == "(" || previous == "[") {
                    Issue.record("bare hyphen starting a word: \(line)")
                }
                previous = character
            }
            if inExample {
                #expect(!line.contains("'") && !line.contains("`") && !line.contains("~"), "unescaped literal: \(line)")
                #expect(!line.contains { $0 == "-" } || !line.replacingOccurrences(of: "\\-", with: "").contains("-"),
                        "hyphen in an example: \(line)")
            }
        }
    }
}
