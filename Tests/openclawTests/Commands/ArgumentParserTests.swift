import Testing
@testable import openclaw

/// Table-driven tests of the hand-written parser: every flag, every spelling.
@Suite struct ArgumentParserTests {
    struct Case: CustomTestStringConvertible {
        let arguments: [String]
        let command: String
        let values: [String: [String]]
        var positionals: [String] = []
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let accepted: [Case] = [
        Case(arguments: ["history"], command: "history", values: [:]),
        Case(arguments: ["history", "--limit", "5"], command: "history", values: ["limit": ["5"]]),
        Case(arguments: ["history", "--limit=5"], command: "history", values: ["limit": ["5"]]),
        Case(arguments: ["history", "-n5"], command: "history", values: ["limit": ["5"]]),
        Case(arguments: ["--limit", "7", "history"], command: "history", values: ["limit": ["7"]]),
        Case(arguments: ["-qs", "main", "history"], command: "history", values: ["quiet": [""], "session": ["main"]]),
        Case(arguments: ["history", "-qsmain"], command: "history", values: ["quiet": [""], "session": ["main"]]),
        Case(arguments: ["-u", "ws://h:1", "-t", "x", "history"], command: "history", values: ["url": ["ws://h:1"], "token": ["x"]]),
        Case(arguments: ["--url=ws://h:1", "--token-file", "-", "history"], command: "history", values: ["url": ["ws://h:1"], "token-file": ["-"]]),
        Case(arguments: ["history", "--password", "p", "--state-dir", "/s", "--config", "/c.json"], command: "history",
             values: ["password": ["p"], "state-dir": ["/s"], "config": ["/c.json"]]),
        Case(arguments: ["history", "--timeout", "2.5", "--connect-timeout", "1"], command: "history",
             values: ["timeout": ["2.5"], "connect-timeout": ["1"]]),
        Case(arguments: ["history", "--retry-connrefused", "--wait-for-pairing"], command: "history",
             values: ["retry-connrefused": [""], "wait-for-pairing": [""]]),
        Case(arguments: ["--wait-for-pairing", "watch"], command: "watch", values: ["wait-for-pairing": [""]]),
        Case(arguments: ["history", "-o", "text", "--raw", "--trace", "--no-device"], command: "history",
             values: ["output": ["text"], "raw": [""], "trace": [""], "no-device": [""]]),
        Case(arguments: ["history", "--scope", "operator.read", "--scope", "operator.admin"], command: "history",
             values: ["scope": ["operator.read", "operator.admin"]]),
        Case(arguments: ["history", "--tls-fingerprint", "AB:CD", "--cacert", "/ca.pem"], command: "history",
             values: ["tls-fingerprint": ["AB:CD"], "cacert": ["/ca.pem"]]),
        Case(arguments: ["send", "hello", "world"], command: "send", values: [:], positionals: ["hello", "world"]),
        Case(arguments: ["send", "--", "--not-a-flag", "-x"], command: "send", values: [:], positionals: ["--not-a-flag", "-x"]),
        Case(arguments: ["send", "-"], command: "send", values: [:], positionals: ["-"]),
        Case(arguments: ["send", "-f", "m.txt", "--thinking", "low", "--deliver", "--no-wait", "--agent-events"], command: "send",
             values: ["file": ["m.txt"], "thinking": ["low"], "deliver": [""], "no-wait": [""], "agent-events": [""]]),
        Case(arguments: ["send", "--attach", "a.png", "--attach", "b.pdf", "--idempotency-key", "k1", "hi"], command: "send",
             values: ["attach": ["a.png", "b.pdf"], "idempotency-key": ["k1"]], positionals: ["hi"]),
        Case(arguments: ["abort", "--run", "r1"], command: "abort", values: ["run": ["r1"]]),
        Case(arguments: ["watch", "-e", "chat", "--event", "agent", "--run", "r", "--count", "3", "--until-final"], command: "watch",
             values: ["event": ["chat", "agent"], "run": ["r"], "count": ["3"], "until-final": [""]]),
        Case(arguments: ["watch", "--max-retries", "0", "--backoff-base", "0.1", "--backoff-max", "2", "--client-events", "--resync"],
             command: "watch", values: ["max-retries": ["0"], "backoff-base": ["0.1"], "backoff-max": ["2"], "client-events": [""], "resync": [""]]),
        Case(arguments: ["watch", "--no-reconnect"], command: "watch", values: ["no-reconnect": [""]]),
        Case(arguments: ["call", "health", "{}", "--expect-final"], command: "call", values: ["expect-final": [""]], positionals: ["health", "{}"]),
        Case(arguments: ["call", "--batch"], command: "call", values: ["batch": [""]]),
        Case(arguments: ["completion", "zsh"], command: "completion", values: [:], positionals: ["zsh"]),
        Case(arguments: ["help", "send"], command: "help", values: [:], positionals: ["send"]),
        Case(arguments: ["send", "--help"], command: "send", values: ["help": [""]]),
        Case(arguments: ["-V"], command: "version", values: ["version": [""]]),
        Case(arguments: [], command: "help", values: [:]),
        Case(arguments: ["-s", "send", "send", "x"], command: "send", values: ["session": ["send"]], positionals: ["x"]),
        // The official CLI's global options, in each form and place it takes them (clawmonitor's line first).
        Case(arguments: ["--log-level", "silent", "gateway", "call", "health", "--json", "--timeout", "10000", "--params", "{}"],
             command: "gateway", values: ["log-level": ["silent"], "json": [""], "timeout": ["10000"], "params": ["{}"]],
             positionals: ["call", "health"]),
        Case(arguments: ["--log-level=error", "history"], command: "history", values: ["log-level": ["error"]]),
        Case(arguments: ["history", "--log-level", "trace"], command: "history", values: ["log-level": ["trace"]]),
        Case(arguments: ["gateway", "--log-level", "fatal", "call", "x"], command: "gateway", values: ["log-level": ["fatal"]],
             positionals: ["call", "x"]),
        Case(arguments: ["--no-color", "history"], command: "history", values: ["no-color": [""]]),
        Case(arguments: ["history", "--no-color"], command: "history", values: ["no-color": [""]]),
        Case(arguments: ["--container", "box", "history"], command: "history", values: ["container": ["box"]]),
        Case(arguments: ["--container=box", "send", "hi"], command: "send", values: ["container": ["box"]], positionals: ["hi"]),
        Case(arguments: ["send", "hi", "--container", "box"], command: "send", values: ["container": ["box"]], positionals: ["hi"]),
        Case(arguments: ["--profile", "work", "history"], command: "history", values: ["profile": ["work"]]),
        Case(arguments: ["--profile=work", "history"], command: "history", values: ["profile": ["work"]]),
        Case(arguments: ["history", "--profile", "work"], command: "history", values: ["profile": ["work"]]),
        Case(arguments: ["--dev", "history"], command: "history", values: ["dev": [""]]),
        Case(arguments: ["history", "--dev"], command: "history", values: ["dev": [""]]),
        Case(arguments: ["--version"], command: "version", values: ["version": [""]]),
        Case(arguments: ["-v"], command: "version", values: ["version": [""]]),
        Case(arguments: ["--log-level", "silent", "-v"], command: "version", values: ["log-level": ["silent"], "version": [""]]),
        Case(arguments: ["-v", "history"], command: "history", values: ["version": [""]]),
        Case(arguments: ["history", "-V"], command: "history", values: ["version": [""]]),
        Case(arguments: ["-h", "history"], command: "history", values: ["help": [""]]),
    ]

    @Test(arguments: accepted)
    func parses(_ c: Case) throws {
        let invocation = try ArgumentParser.parse(c.arguments)
        #expect(invocation.command.name == c.command)
        #expect(invocation.values == c.values)
        #expect(invocation.positionals == c.positionals)
    }

    static let rejected: [([String], String)] = [
        (["hist"], "unknown command 'hist' (did you mean 'history'?)"),
        (["send", "--ouput", "text"], "unknown flag --ouput for 'send' (did you mean --output?)"),
        (["history", "--agent-events"], "unknown flag --agent-events for 'history'"),
        (["history", "-x"], "unknown flag -x for 'history'"),
        (["history", "--limit"], "--limit needs a value: N"),
        (["history", "--limit", "abc"], "--limit expects a whole number from 1 to 1000, got 'abc'"),
        (["history", "--limit", "1001"], "--limit expects a whole number from 1 to 1000, got '1001'"),
        (["history", "-o", "yaml"], "--output expects one of ndjson, text, got 'yaml'"),
        (["history", "--timeout", "-1"], "--timeout expects seconds from 0 to 31536000, got '-1'"),
        (["history", "--timeout", "nan"], "--timeout expects seconds"),
        (["history", "--raw=yes"], "--raw does not take a value"),
        (["watch", "--count", "0"], "--count expects a whole number 1 or more, got '0'"),
        (["history", "--url="], "--url needs a non-empty URL"),
        (["history", "-s"], "--session needs a value: KEY"),
        (["history", "--log-level", "loud"], "--log-level expects one of silent, fatal, error, warn, info, debug, trace, got 'loud'"),
        (["--log-level=SILENT", "history"], "--log-level expects one of silent, fatal, error, warn, info, debug, trace, got 'SILENT'"),
        (["history", "--log-level"], "--log-level needs a value: LEVEL"),
        (["--container=", "history"], "--container needs a non-empty NAME"),
        (["history", "--container"], "--container needs a value: NAME"),
        (["history", "--no-color=yes"], "--no-color does not take a value"),
        (["history", "-v"], "unknown flag -v for 'history'"),
    ]

    /// The command words the dispatcher reads before parsing (to hand official commands over): the values
    /// of the official global options are never taken for one (`silent` was, before `--log-level` was known).
    static let leading: [([String], [String])] = [
        (["--log-level", "silent", "gateway", "call", "health"], ["gateway", "call"]),
        (["--log-level=silent", "gateway", "call", "health"], ["gateway", "call"]),
        (["--container", "box", "status", "--deep"], ["status"]),
        (["--profile", "work", "--dev", "doctor"], ["doctor"]),
        (["--no-color", "--log-level", "debug", "models", "list"], ["models", "list"]),
        (["--update"], ["update"]),
        (["--log-level", "info", "--update", "--channel", "beta"], ["update", "beta"]),
        (["status", "--update"], ["status"]),
        (["--", "--update"], []),
    ]

    @Test(arguments: leading)
    func leadingWordsSkipTheOfficialOptionsValues(_ arguments: [String], _ words: [String]) {
        #expect(ArgumentParser.leadingWords(arguments, limit: 2) == words)
    }

    @Test func theOfficialCommandsAndOursAfterTheOfficialOptions() {
        let official = { (arguments: [String]) in ArgumentParser.officialCommand(words: ArgumentParser.leadingWords(arguments, limit: 2)) }
        #expect(official(["--log-level", "silent", "gateway", "call", "health"]) == nil)
        #expect(official(["--log-level", "silent", "message", "send"]) == "message")
        #expect(official(["--container", "box", "status"]) == "status")
        #expect(official(["--update"]) == "update")
        #expect(official(["--log-level", "silent", "history"]) == nil)
    }

    @Test func theQuietLevelsQuietDiagnostics() throws {
        for (level, quiet) in [("silent", true), ("fatal", true), ("error", true), ("warn", false), ("info", false),
                               ("debug", false), ("trace", false)] {
            #expect(try ArgumentParser.parse(["history", "--log-level", level]).options.global.quietsDiagnostics == quiet, "\(level)")
        }
        #expect(try ArgumentParser.parse(["history", "-q"]).options.global.quietsDiagnostics)
        #expect(try !ArgumentParser.parse(["history"]).options.global.quietsDiagnostics)
    }

    @Test(arguments: rejected)
    func rejects(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
        do { _ = try ArgumentParser.parse(arguments) } catch {
            #expect(error.message.hasPrefix(message) || error.message.contains(message), "\(error.message)")
        }
    }

    @Test func everyFlagInTheTableParsesInBothSpellings() throws {
        for command in CommandTable.commands where !command.hidden {
            for flag in CommandTable.flags(for: command) where flag.long != "help" && flag.long != "version" {
                let value: String
                switch flag.value {
                case .none: value = ""
                case .integer(let range): value = String(range.lowerBound == 0 ? 1 : range.lowerBound)
                case .seconds: value = "1"
                case .choice(let choices): value = choices[0]
                case .text, .file, .directory: value = "v"
                }
                let spelled = flag.takesValue ? [command.name, "--\(flag.long)", value] : [command.name, "--\(flag.long)"]
                let invocation = try ArgumentParser.parse(spelled)
                #expect(invocation.values[flag.long] == [value], "\(spelled)")
                if let short = flag.short {
                    let shortSpelled = flag.takesValue ? [command.name, "-\(short)", value] : [command.name, "-\(short)"]
                    #expect(try ArgumentParser.parse(shortSpelled).values[flag.long] == [value], "\(shortSpelled)")
                }
            }
        }
    }

    @Test func shortNamesAreUniqueWithinEachCommand() {
        for command in CommandTable.commands {
            let shorts = CommandTable.flags(for: command).compactMap(\.short)
            #expect(Set(shorts).count == shorts.count, "\(command.name)")
        }
    }
}
