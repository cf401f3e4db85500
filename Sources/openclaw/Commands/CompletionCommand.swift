@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawJSON

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

    /// The hidden command the scripts call for `--session` values: keys exactly, one a line (a key
    /// with a line break or another control character cannot be one word of a shell line: left out).
    static let sessionKeysCommand = "__session-keys"

    static func sessionKeys(_ context: CommandContext) throws {
        let session = try context.openSession()
        defer { session.close() }
        let response = try request(GatewayMethod.sessionsList, params: .object([:]), on: session, context: context)
        if response.error != nil { throw gatewayFailure(response, method: GatewayMethod.sessionsList) }
        for row in response.payload?["sessions"]?.arrayValue ?? [] {
            guard let key = row["key"]?.stringValue, !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { continue }
            context.console.out.write(key + "\n")
        }
    }
}
