import OpenClawKit

/// Parses the command line, runs the command, and turns every outcome into an exit status.
enum Dispatcher {
    static func run(_ arguments: [String]) -> ExitStatus {
        SignalWatcher.install()
        let environment = Environment.current()
        let invocation: Invocation
        do { invocation = try ArgumentParser.parse(arguments) } catch {
            Console.error(error.message)
            return .usage
        }
        Console.quiet = invocation.has("quiet")
        do {
            try dispatch(invocation, environment: environment)
            try flushOutput()
            return .success
        } catch let failure as CommandFailure {
            _ = Console.out.flush()
            Console.error(failure.message)
            return failure.status
        } catch is OutputClosed {
            return .success
        } catch let error as GatewayError {
            _ = Console.out.flush()
            Console.error(error.description)
            return ExitStatus(error)
        } catch {
            _ = Console.out.flush()
            Console.error("\(error)")
            return .protocolError
        }
    }

    private static func dispatch(_ invocation: Invocation, environment: Environment) throws {
        let command = invocation.command
        if invocation.has("help") || command.name == "help" {
            let topic = command.name == "help" ? invocation.positionals.first : command.name
            guard let topic else { Console.out.write(HelpText.overview); return }
            guard let spec = CommandTable.command(named: topic), !spec.hidden else {
                throw CommandFailure(.usage, "no help for '\(topic)': not a command; run 'openclaw help'")
            }
            Console.out.write(topic == "help" ? HelpText.overview : HelpText.command(spec))
            return
        }
        if invocation.has("version") || command.name == "version" {
            Console.out.write(VersionText.text)
            return
        }
        let takesArguments: Set<String> = ["send", "call", "completion"]
        if !takesArguments.contains(command.name), let extra = invocation.positionals.first {
            throw CommandFailure(.usage, "'\(command.name)' takes no arguments, got '\(extra)'")
        }
        switch command.name {
        case "history": try HistoryCommand.run(CommandContext(invocation: invocation, environment: environment, defaultTimeout: 30))
        case "send": try SendCommand.run(CommandContext(invocation: invocation, environment: environment, defaultTimeout: 600))
        case "abort": try AbortCommand.run(CommandContext(invocation: invocation, environment: environment, defaultTimeout: 30))
        case "call": try CallCommand.run(CommandContext(invocation: invocation, environment: environment, defaultTimeout: 30))
        case "watch": try WatchCommand.run(CommandContext(invocation: invocation, environment: environment, defaultTimeout: 0))
        case "completion": try CompletionCommand.run(invocation)
        case "__man": Console.out.write(ManPage.document)
        default: throw CommandFailure(.usage, "unknown command '\(command.name)'")
        }
    }
}
