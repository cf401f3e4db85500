/// `openclaw completion bash|zsh|fish`: prints the completion script for that shell.
enum CompletionCommand {
    static func run(_ invocation: Invocation) throws {
        let choices = CompletionModel.shells.joined(separator: ", ")
        guard let shell = invocation.positionals.first else {
            throw CommandFailure(.usage, "completion needs a shell: one of \(choices)")
        }
        guard invocation.positionals.count == 1 else {
            throw CommandFailure(.usage, "completion takes one shell, got \(invocation.positionals.count) arguments")
        }
        switch shell {
        case "bash": Console.out.write(BashCompletion.script)
        case "zsh": Console.out.write(ZshCompletion.script)
        case "fish": Console.out.write(FishCompletion.script)
        default: throw CommandFailure(.usage, "completion: unknown shell '\(shell)'; expected one of \(choices)")
        }
    }
}
