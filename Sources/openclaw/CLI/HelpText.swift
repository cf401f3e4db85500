@_spi(Engine) import ClawProtocol

/// `openclaw help` and `openclaw help COMMAND`, generated from the command table.
enum HelpText {
    static let version = ClawVersion.current

    /// `officialCLI`: where the official CLI is (`OfficialCLI.location`), for the section of its commands.
    static func overview(officialCLI: String) -> String {
        var out = "openclaw \(version): a scriptable client for the OpenClaw Gateway\n\n"
        out += "Usage: openclaw [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\nCommands:\n"
        let visible = CommandTable.commands.filter { !$0.hidden }
        let width = visible.map { ($0.name + " " + $0.arguments).count }.max() ?? 0
        for command in visible {
            out += "  " + pad(command.name + " " + command.arguments, width) + "  " + command.summary + "\n"
        }
        out += "\nCommands of the official OpenClaw CLI, run by it (\(officialCLI)):\n"
        out += wrap(CompletionModel.officialOnlyNames.joined(separator: " "), width: 76).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        out += "\nGlobal options:\n" + flagList(CommandTable.globalFlags)
        out += "\nOutput is NDJSON on stdout (one gateway frame per line); diagnostics go to stderr.\n"
        out += "Exit status: 0 ok, 1 gateway error, 2 usage, 3 connection, 4 auth/pairing, 5 timeout, 6 protocol, 130/143 signal.\n"
        out += "Run 'openclaw help COMMAND' for a command's options; 'man openclaw' for the manual\n"
        // The page is not installed in a clone: say how to read it from there.
        out += "(in a source checkout: 'man -l man/openclaw.1', or docs/cli.md).\n"
        return out
    }

    static func command(_ command: CommandSpec) -> String {
        var out = "Usage: openclaw \(command.name)"
        if !command.flags.isEmpty { out += " [OPTIONS]" }
        if !command.arguments.isEmpty { out += " " + command.arguments }
        out += "\n\n\(command.summary)\n"
        if !command.details.isEmpty { out += "\n" + wrap(command.details, width: 78) + "\n" }
        if !command.flags.isEmpty { out += "\nOptions:\n" + flagList(command.flags) }
        out += "\nGlobal options (see 'openclaw help'): " + CommandTable.globalFlags.map { "--\($0.long)" }.joined(separator: " ") + "\n"
        return out
    }

    static func flagList(_ flags: [FlagSpec]) -> String {
        let width = min(30, flags.map { signatureColumn($0).count }.max() ?? 0)
        var out = ""
        for flag in flags {
            let left = signatureColumn(flag)
            var help = flag.help
            if !flag.environment.isEmpty { help += " [env: \(flag.environment[0])]" }
            if left.count > width { out += "  \(left)\n  " + String(repeating: " ", count: width) + "  \(help)\n" }
            else { out += "  " + pad(left, width) + "  " + help + "\n" }
        }
        return out
    }

    /// `-s, --session KEY`, with long-only flags indented to line up.
    private static func signatureColumn(_ flag: FlagSpec) -> String {
        flag.short == nil ? "    " + flag.signature : flag.signature
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
