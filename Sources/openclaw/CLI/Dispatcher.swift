@_spi(Engine) import ClawSystem

/// Parses the command line, runs the command's handler from the table, and turns every outcome
/// into an exit status and, for failures, one line on stderr.
enum Dispatcher {
    /// `invalidUTF8Argument`: the position (from 1) of an argument that is not valid UTF-8.
    static func run(_ arguments: [String], invalidUTF8Argument: Int? = nil) -> ExitStatus {
        // Before anything else (signal dispositions and masks survive exec): a command of the
        // official CLI runs that CLI in place of this process.
        let words = ArgumentParser.leadingWords(arguments, limit: 2)
        if let word = ArgumentParser.officialCommand(words: words) {
            let failure = OfficialCLI.handOver(arguments, reason: .command(word), environment: Environment.current())
            // With no official CLI, a word it does not have either is reported as our typo (below).
            if !(failure.isNotFound && !OfficialCommands.contains(word)) {
                Console.standard().error(failure.message)
                return .usage
            }
        }
        let environment = Environment.current()
        var console = Console.standard()
        if let position = invalidUTF8Argument {
            console.error("argument \(position) is not valid UTF-8; give text in UTF-8 (or the message with --file or on stdin)")
            return .usage
        }
        let invocation: Invocation
        do { invocation = try ArgumentParser.parse(arguments, commandWord: words.first) } catch {
            console.error(error.message)
            return .usage
        }
        // `--container` (or OPENCLAW_CONTAINER for `gateway call`): only the official CLI can run a command
        // inside a container, so the whole command line is its, before anything else happens here.
        if let reason = OfficialCLI.containerHandOver(invocation, environment: environment) ?? OfficialCLI.embeddedHandOver(invocation) {
            console.error(OfficialCLI.handOver(arguments, reason: reason, environment: environment).message)
            return .usage
        }
        let signals = SignalWatcher.install()
        console = console.quieted(invocation.options.global.quietsDiagnostics)
        let context = CommandContext(invocation: invocation, environment: environment, console: console, signals: signals)
        defer { context.link.close() }  // on every path: no ssh outlives the command
        let status = outcome(of: context)
        // Never status 0 after SIGINT or SIGTERM, whatever the command made of it.
        return signals.received != 0 ? ExitStatus(signal: signals.received) : status
    }

    private static func outcome(of context: CommandContext) -> ExitStatus {
        let console = context.console
        do {
            try dispatch(context)
            try console.flushOutput()
            reportSkippedFrames(context)
            return .success
        } catch is OutputClosed {
            return .success
        } catch let reported as ReportedFailure {
            _ = console.out.flush()
            return reported.status
        } catch {
            _ = console.out.flush()
            reportSkippedFrames(context)
            let failure = FailureMessages.failure(for: context.link.explain(error))
            console.error(failure.message)
            return failure.status
        }
    }

    private static func reportSkippedFrames(_ context: CommandContext) {
        if let summary = context.skipped.summary() { context.console.note(summary) }
    }

    private static func dispatch(_ context: CommandContext) throws {
        if context.global.help || context.command.name == "help" { return try HelpCommand.run(context) }
        if context.global.version || context.command.name == "version" { return try VersionCommand.run(context) }
        let command = context.command
        if command.positionals == .none, let extra = context.positionals.first {
            throw CommandFailure(.usage, "'\(command.name)' takes no arguments, got '\(extra)'")
        }
        try command.run(context)
    }
}

/// `openclaw help [COMMAND]` and `--help`.
enum HelpCommand {
    static func run(_ context: CommandContext) throws {
        let name = context.command.name
        let topic = name == "help" ? context.positionals.first : name
        let overview = HelpText.overview(officialCLI: OfficialCLI.location(context.environment))
        guard let topic else { context.console.out.write(overview); return }
        guard let spec = CommandTable.command(named: topic), !spec.hidden else {
            throw CommandFailure(.usage, "no help for '\(topic)': not a command; run 'openclaw help'")
        }
        context.console.out.write(topic == "help" ? overview : HelpText.command(spec))
    }
}

/// `openclaw version` and `--version`.
enum VersionCommand {
    static func run(_ context: CommandContext) throws {
        context.console.out.write(VersionText.text(officialCLI: OfficialCLI.location(context.environment)))
    }
}
