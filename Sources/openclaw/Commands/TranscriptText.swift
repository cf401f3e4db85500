import OpenClawKit

/// Renders transcript messages for `-o text`.
enum TranscriptText {
    /// `role: text`, with text parts joined and tool calls shown as `[tool NAME]`.
    static func line(for message: JSONValue) -> String {
        let role = message["role"]?.stringValue ?? "unknown"
        return "\(role): \(text(of: message))"
    }

    /// The readable text of a message whose `content` is a string or an array of parts.
    static func text(of message: JSONValue?) -> String {
        guard let content = message?["content"] else { return message?["text"]?.stringValue ?? "" }
        if let text = content.stringValue { return text }
        var pieces: [String] = []
        for part in content.arrayValue ?? [] {
            switch part["type"]?.stringValue {
            case "text": if let text = part["text"]?.stringValue { pieces.append(text) }
            case "toolCall", "tool_use", "toolUse": pieces.append("[tool \(part["name"]?.stringValue ?? "?")]")
            case "image": pieces.append("[image]")
            default: break
            }
        }
        return pieces.joined(separator: " ")
    }
}
