@_spi(Engine) import ClawSystem

/// The result of parsing the command line: which command, its typed options and positionals.
struct Invocation {
    var command: CommandSpec
    /// What commands read: later flags override earlier ones, repeatable ones accumulate.
    var options = Options()
    var positionals: [String] = []
    /// The validated values as spelled, by long flag name ("" for a switch): what the parser's
    /// table tests and the fuzzer check. Commands never read these.
    var values: [String: [String]] = [:]
}

/// openclaw's hand-written parser, driven by `CommandTable`.
/// Accepts options before or after the command, `--flag=value` and `--flag value`,
/// bundled short flags (`-qs main`), `--` to end options, and repeatable flags. Beside the table, two
/// spellings of the official CLI's root: `-v` before the command word is `--version`, and `--update`
/// there is its command `update` (`leadingWords`).
enum ArgumentParser {
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        try parse(arguments, commandWord: leadingWords(arguments, limit: 1).first)
    }

    /// `commandWord`: the first of `leadingWords`, when the caller already has them (the dispatcher
    /// reads them once, to decide first whether the command is the official CLI's).
    static func parse(_ arguments: [String], commandWord: String?) throws(UsageError) -> Invocation {
        let command = try findCommand(commandWord, in: arguments)
        var invocation = Invocation(command: command)
        let known = CommandTable.flags(for: command)
        var index = 0
        var optionsEnded = false
        var commandSeen = false

        func record(_ flag: FlagSpec, _ value: String) throws(UsageError) {
            let canonical = try validate(value, for: flag)
            flag.apply(canonical, to: &invocation.options)
            invocation.values[flag.long, default: []].append(canonical)
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                if !commandSeen && argument == command.name && !optionsEnded { commandSeen = true; continue }
                invocation.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == Self.rootVersionAlias && !commandSeen, let version = known.first(where: { $0.long == "version" }) {
                try record(version, "")
                continue
            }

            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix(while: { $0 != "=" }))
                let inline: String? = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
                guard let flag = known.first(where: { $0.long == name }) else {
                    throw unknownFlag("--\(name)", command: command, candidates: known.map { "--\($0.long)" })
                }
                if flag.takesValue {
                    if let inline { try record(flag, inline); continue }
                    guard index < arguments.count else { throw missingValue(flag) }
                    try record(flag, arguments[index])
                    index += 1
                } else {
                    if inline != nil { throw UsageError("--\(flag.long) does not take a value") }
                    try record(flag, "")
                }
                continue
            }

            // A bundle of short flags: `-q`, `-qs main`, `-smain`, `-n5`.
            var letters = Substring(argument.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                guard let flag = known.first(where: { $0.short == letter }) else {
                    throw unknownFlag("-\(letter)", command: command, candidates: known.compactMap { $0.short.map { "-\($0)" } })
                }
                if flag.takesValue {
                    if !letters.isEmpty { try record(flag, String(letters)); letters = "" }
                    else if index < arguments.count { try record(flag, arguments[index]); index += 1 }
                    else { throw missingValue(flag) }
                } else {
                    try record(flag, "")
                }
            }
        }
        return invocation
    }

    /// Finds the command word: the first positional, skipping flags and their values.
    /// No command at all means `help`.
    private static func findCommand(_ commandWord: String?, in arguments: [String]) throws(UsageError) -> CommandSpec {
        if let word = commandWord {
            if let command = CommandTable.command(named: word) { return command }
            let names = CommandTable.commands.filter { !$0.hidden }.map { $0.name }
            let hint = closestMatch(to: word, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError("unknown command '\(word)'\(hint); run 'openclaw help' for the list")
        }
        // Version and help switches work without a command.
        let switches = Set(arguments)
        if switches.contains("--version") || switches.contains("-V") || switches.contains(rootVersionAlias) {
            return CommandTable.command(named: "version")!
        }
        return CommandTable.command(named: "help")!
    }

    /// The command word when it belongs to the official OpenClaw CLI: any word we have no command
    /// for, `gateway` unless its subcommand is `call` (the one we answer), and `help` for one of the
    /// official CLI's commands. Nil for ours, and when there is no command word at all.
    /// `words`: `leadingWords(arguments, limit: 2)`.
    static func officialCommand(words: [String]) -> String? {
        guard let word = words.first else { return nil }
        if word == "help", let topic = words.dropFirst().first, CommandTable.command(named: topic) == nil,
           OfficialCommands.contains(topic) {
            return topic
        }
        if word == GatewayCallCommand.parent { return words.dropFirst().first == GatewayCallCommand.subcommand ? nil : word }
        // A command of the official CLI's that we answer only in part (`system event`, `cron run`):
        // its other subcommands are the official CLI's.
        guard let command = CommandTable.command(named: word) else { return word }
        return command.positionals.answers(subcommand: words.dropFirst().first) ? nil : word
    }

    /// The official CLI's `-v`: the version, when it comes before the command word.
    static let rootVersionAlias = "-v"
    /// The official CLI's `--update` before the command word: its command `update`.
    static let rootUpdateFlag = "--update"

    /// The first `limit` positional words, skipping flags and the values of the flags that take one
    /// (any command's: the command is not known yet); nothing after `--`. `--update` before the first
    /// word stands for the word `update`, as in the official CLI.
    static func leadingWords(_ arguments: [String], limit: Int) -> [String] {
        var words: [String] = []
        var index = 0
        // Before the command word any command's flags may come; after it, that command's own decide
        // which take a value (`agent --verbose on`, `health --verbose`). Looked up only when a flag
        // comes: `openclaw history` never builds the table of every command's flags.
        var commandFlags: [FlagSpec]? = nil
        var flags: [FlagSpec] { commandFlags ?? CommandTable.allFlags }
        while index < arguments.count && words.count < limit {
            // (another's, an official CLI command's: only the global ones are known).
            if words.count == 1 && commandFlags == nil { commandFlags = CommandTable.flags(for: CommandTable.command(named: words[0])) }
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            if argument == rootUpdateFlag && words.isEmpty {
                words.append("update")
            } else if argument == "-" || !argument.hasPrefix("-") {
                words.append(argument)
            } else if argument.hasPrefix("--") {
                let name = argument.dropFirst(2)
                if !name.contains("="), let flag = flags.first(where: { $0.long == name }), flag.takesValue {
                    index += 1
                }
            } else {
                // In a short bundle, a value-taking letter consumes the rest or the next argument.
                for (offset, letter) in argument.dropFirst().enumerated() {
                    if let flag = flags.first(where: { $0.short == letter }), flag.takesValue {
                        if offset == argument.count - 2 { index += 1 }
                        break
                    }
                }
            }
        }
        return words
    }

    private static func unknownFlag(_ flag: String, command: CommandSpec, candidates: [String]) -> UsageError {
        let hint = closestMatch(to: flag, in: candidates).map { " (did you mean \($0)?)" } ?? ""
        let scope = command.name == "help" ? "" : " for '\(command.name)'"
        return UsageError("unknown flag \(flag)\(scope)\(hint); see 'openclaw help \(command.name)'")
    }

    private static func missingValue(_ flag: FlagSpec) -> UsageError {
        UsageError("--\(flag.long) needs a value: \(flag.placeholder)")
    }

    /// Checks a value against the flag's kind and returns it in canonical form.
    static func validate(_ value: String, for flag: FlagSpec) throws(UsageError) -> String {
        switch flag.value {
        case .none, .text, .file, .directory:
            if flag.value != .none && value.isEmpty { throw UsageError("--\(flag.long) needs a non-empty \(flag.placeholder)") }
            return value
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else {
                let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
                throw UsageError("--\(flag.long) expects a whole number \(bounds), got '\(value)'")
            }
            return String(number)
        case .seconds(let range):
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                throw UsageError("--\(flag.long) expects seconds from \(formatSeconds(range.lowerBound)) to \(formatSeconds(range.upperBound)), got '\(value)'")
            }
            return value
        case .choice(let choices):
            guard choices.contains(value) else {
                throw UsageError("--\(flag.long) expects one of \(choices.joined(separator: ", ")), got '\(value)'")
            }
            return value
        }
    }

}
