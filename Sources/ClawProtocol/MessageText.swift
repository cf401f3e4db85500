@_spi(Engine) import ClawJSON
/// The printable text of a transcript or `chat` event message (docs/protocol.md §4.1, §5.1): text parts exactly
/// as sent, tool calls as `[tool NAME]`, images as `[image]`, thinking hidden.
@_spi(Engine) public enum MessageText {
    /// The text of `message`, whose `content` is a string or an array of parts; "" when nothing is printable.
    @_spi(Engine) public static func text(of message: JSONValue?) -> String {
        guard let message else { return "" }
        if let text = message.stringValue { return text }
        guard let content = message["content"] else { return message["text"]?.stringValue ?? "" }
        if let text = content.stringValue { return text }
        var out = ""
        var lastWasMarker = false
        for part in content.arrayValue ?? [] {
            let piece: String
            let isMarker: Bool
            switch part["type"]?.stringValue {
            case "text":
                guard let text = part["text"]?.stringValue else { continue }
                (piece, isMarker) = (text, false)
            case "toolCall", "tool_use", "toolUse":
                (piece, isMarker) = ("[tool \(part["name"]?.stringValue ?? "?")]", true)
            case "image":
                (piece, isMarker) = ("[image]", true)
            default:
                continue
            }
            // Text parts are joined as sent ("Hello " + "world"); only a marker gets a space from its neighbours.
            if (isMarker || lastWasMarker), let last = out.last, !last.isWhitespace, piece.first?.isWhitespace == false {
                out += " "
            }
            out += piece
            lastWasMarker = isMarker
        }
        return out
    }

    /// `text(of:)`, or when that is empty a short placeholder so a listing never shows a blank message:
    /// `[tool result]`, `[thinking]`, `[attachment]`, `[error]`, `[aborted]` or `[empty]`.
    @_spi(Engine) public static func display(of message: JSONValue?) -> String {
        let text = text(of: message)
        if !text.isEmpty { return text }
        let role = message?["role"]?.stringValue
        let types = (message?["content"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue }.filter { $0 != "text" }
        if role == "toolResult" || role == "tool" || types.contains("tool_result") || types.contains("toolResult") {
            return "[tool result]"
        }
        if types.contains("thinking") || types.contains("redacted_thinking") { return "[thinking]" }
        switch message?["stopReason"]?.stringValue {
        case "error": return "[error]"
        case "aborted": return "[aborted]"
        default: return types.isEmpty ? "[empty]" : "[attachment]"
        }
    }
}
