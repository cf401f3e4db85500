import OpenClawKit

/// Renders transcript messages for `-o text` (the rules live in the library's `MessageText`).
enum TranscriptText {
    /// `role: text`, with a placeholder such as `[tool result]` for a message with no printable part.
    static func line(for message: JSONValue) -> String {
        let role = message["role"]?.stringValue ?? "unknown"
        return "\(role): \(MessageText.display(of: message))"
    }

    /// The readable text of a message whose `content` is a string or an array of parts.
    static func text(of message: JSONValue?) -> String { MessageText.text(of: message) }
}
