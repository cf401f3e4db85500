/// `openclaw completion bash|zsh|fish`.
enum CompletionCommand {
    static func run(_ invocation: Invocation) throws {
        throw CommandFailure(.usage, "completion is not available yet")
    }
}
