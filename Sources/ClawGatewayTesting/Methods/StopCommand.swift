import Foundation

/// The gateway's reading of a `chat.send` message as a stop request (official `isAbortRequestText`
/// in src/auto-reply/reply/abort-primitives.ts and abort-trigger-text.ts): `/stop` (also `/stop:`,
/// `/STOP`, `/stop!`) or one of the trigger phrases below, after lower-casing, turning ’ and ` into ',
/// collapsing whitespace and dropping trailing punctuation. Note `cancel` is not a trigger.
enum StopCommand {
    static let triggers: Set<String> = [
        "stop", "esc", "abort", "exit", "interrupt", "detente", "deten", "detén", "arrete", "arrête",
        "停止", "停下来", "暂停", "やめて", "止めて", "रुको", "توقف", "стоп", "остановись", "останови",
        "остановить", "прекрати", "halt", "anhalten", "aufhören", "hoer auf", "stopp", "pare",
        "stop openclaw", "openclaw stop", "stop action", "stop current action", "stop run", "stop current run",
        "stop agent", "stop the agent", "stop don't do anything", "stop dont do anything",
        "stop do not do anything", "stop doing anything", "do not do that", "please stop", "stop please",
    ]

    private static let trailingPunctuation: Set<Character> = [
        ".", "!", "?", "！", "？", "…", ",", "，", "。", ";", "；", ":", "：", "'", "\"", "’", "”", ")", "]", "}",
    ]

    static func isStopRequest(_ text: String) -> Bool {
        let body = commandBody(text)
        guard !body.isEmpty else { return false }
        let normal = normalized(body)
        return normal == "/stop" || triggers.contains(normal)
    }

    /// `normalizeCommandBody` for the one command that matters here: a slash command keeps only its
    /// first line, and `/cmd: rest` reads as `/cmd rest`.
    static func commandBody(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("/") else { return trimmed }
        let line = trimmed.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let singleLine = line.trimmingCharacters(in: .whitespaces)
        // `^/([^\s:]+)\s*:(.*)$`
        guard let colon = singleLine.firstIndex(of: ":") else { return singleLine }
        var command = String(singleLine[singleLine.index(after: singleLine.startIndex)..<colon])
        while command.last?.isWhitespace == true { command.removeLast() }
        guard !command.isEmpty, !command.contains(where: \.isWhitespace) else { return singleLine }
        let rest = singleLine[singleLine.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return rest.isEmpty ? "/\(command)" : "/\(command) \(rest)"
    }

    /// `normalizeAbortTriggerText`.
    static func normalized(_ text: String) -> String {
        var value = text.lowercased().replacingOccurrences(of: "’", with: "'").replacingOccurrences(of: "`", with: "'")
        value = value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while let last = value.last, trailingPunctuation.contains(last) { value.removeLast() }
        return value.trimmingCharacters(in: .whitespaces)
    }
}
