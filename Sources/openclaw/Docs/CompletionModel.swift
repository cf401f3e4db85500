/// What the completion scripts need from the command table, computed once in Swift so the
/// three shell generators agree on which commands, flags and values exist.
enum CompletionModel {
    /// The shells `openclaw completion` can print a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// Commands users can type: hidden generators are left out.
    static var commands: [CommandSpec] { CommandTable.commands.filter { !$0.hidden } }

    static var commandNames: [String] { commands.map(\.name) }

    /// Commands of the official OpenClaw CLI that are not ours: offered as command words (they are
    /// handed over), and nothing of ours is offered after them.
    static var officialOnlyNames: [String] { OfficialCommands.names.filter { !commandNames.contains($0) } }

    /// Every command word: ours, then the official CLI's.
    static var commandWords: [String] { commandNames + officialOnlyNames }

    /// What to offer for a flag's value; nil for a switch.
    static func value(of flag: FlagSpec) -> CompletionValue? {
        switch flag.value {
        case .none: return nil
        case .choice(let choices): return .words(choices)
        case .file: return .files
        case .directory: return .directories
        case .text where flag.isSessionKey: return .sessionKeys
        case .text, .integer, .seconds: return .nothing
        }
    }

    /// What to offer for a command's positional arguments.
    static func arguments(of command: CommandSpec) -> CompletionValue {
        switch command.positionals {
        case .shell: return .words(shells)
        case .command: return .words(commandNames)
        case .gatewayCall: return .words([GatewayCallCommand.subcommand])
        case .subcommands(let words, _): return words.isEmpty ? .nothing : .words(words)
        case .none, .message, .methodAndParams: return .nothing
        }
    }

    /// Long names (with `--`) of every value-taking flag of any command: the parser skips their
    /// values while it looks for the command word, and so must the scripts.
    static var valueTakingLongFlags: [String] {
        var seen: [String] = []
        for flag in CommandTable.allFlags where flag.takesValue && !seen.contains("--" + flag.long) {
            seen.append("--" + flag.long)
        }
        return seen
    }

    /// The letters of value-taking short flags, e.g. "utso": in a bundle, the first of them
    /// takes the rest of the word, or the next word when it comes last.
    static var valueTakingShortLetters: String {
        var letters = ""
        for flag in CommandTable.allFlags where flag.takesValue {
            if let short = flag.short, !letters.contains(short) { letters.append(short) }
        }
        return letters
    }

    /// A regular expression (POSIX ERE, also PCRE) matching a short bundle whose value is the next
    /// word: its first value-taking letter comes last. Scripts test `--` words before this one.
    static var bundleTakingNextWord: String {
        let letters = valueTakingShortLetters
        return letters.isEmpty ? "^-$^" : "^-[^\(letters)]*[\(letters)]$"
    }

    /// Shell pipeline printing the gateway's session keys, one a line: 2 s limit, silent on failure,
    /// plain tr/sed so it works without jq. Identical in bash, zsh and fish single quotes.
    /// The gateway's session keys, one a line (2 s limit, silent on any failure).
    static let sessionKeysPipeline = "command openclaw \(CompletionCommand.sessionKeysCommand) --timeout 2 -q 2>/dev/null"
}

/// The completions a script offers at one position.
enum CompletionValue: Equatable {
    /// Free text (a number, a message): offer nothing.
    case nothing
    case words([String])
    case files
    case directories
    /// Keys of the gateway's sessions (`sessions.list`).
    case sessionKeys
}
