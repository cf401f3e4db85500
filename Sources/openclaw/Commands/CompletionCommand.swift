/// `openclaw completion bash|zsh|fish`: prints the completion script for that shell.
enum CompletionCommand {
    static func run(_ context: CommandContext) throws {
        // `--shell SHELL` is the official CLI's spelling of the argument.
        let positionals = context.positionals + (context.options.completion.shell.map { [$0] } ?? [])
        let out = context.console.out
        let choices = CompletionModel.shells.joined(separator: ", ")
        guard let shell = positionals.first else {
            throw CommandFailure(.usage, "completion needs a shell: one of \(choices)")
        }
        guard positionals.count == 1 else {
            throw CommandFailure(.usage, "completion takes one shell, got \(positionals.count) arguments")
        }
        switch shell {
        case "bash": out.write(BashCompletion.script)
        case "zsh": out.write(ZshCompletion.script)
        case "fish": out.write(FishCompletion.script)
        default: throw CommandFailure(.usage, "completion: unknown shell '\(shell)'; expected one of \(choices)")
        }
    }
}
