@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Renders transcript messages for `-o text` (the rules live in the library's `MessageText`).
enum TranscriptText {
    /// `role: text`, with a placeholder such as `[tool result]` for a message with no printable part.
    /// Continuation lines of a multi-line message are indented by two spaces, so every line that
    /// starts at column 0 starts a message.
    static func line(for message: JSONValue, colour: Bool = false) -> String {
        let role = message["role"]?.stringValue ?? "unknown"
        let text = MessageText.display(of: message)
        let label = colour ? "\u{1B}[1;\(role == "user" ? 36 : 35)m\(Console.oneLine(role)):\u{1B}[0m " : "\(role): "
        return label + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
    }

    /// The readable text of a message whose `content` is a string or an array of parts.
    static func text(of message: JSONValue?) -> String { MessageText.text(of: message) }
}
