@_spi(Engine) import ClawJSON

/// `hello-ok.policy.attachments` and the check `chat.send` makes with it (official
/// src/gateway/chat-attachments.ts): each attachment's base64 `content` is sized without decoding
/// and refused past its limit, images (`image/*`) against `maxImageBytes`.
struct AttachmentPolicy: Sendable, Equatable {
    /// The official parser's default when no limit is configured.
    static let defaultMaxBytes = 5_000_000

    var maxBytes: Int
    var maxImageBytes: Int

    var json: JSONValue { ["maxBytes": JSONValue(maxBytes), "maxImageBytes": JSONValue(maxImageBytes)] }

    /// The refusal for the first attachment that fails, worded as the gateway words it
    /// (`String(error)` of the thrown `Error`, hence the `Error: ` prefix); nil when all pass.
    func violation(in attachments: [JSONValue]) -> String? {
        for (index, attachment) in attachments.enumerated() where !attachment.isNull {
            let label = Self.label(attachment, index: index)
            guard var base64 = attachment["content"]?.stringValue else {
                return "Error: attachment \(label): content must be base64 string"
            }
            base64 = base64.trimmingASCIIWhitespace
            base64 = Self.strippingDataURLPrefix(base64)
            guard Self.isValidBase64(base64) else { return "Error: attachment \(label): invalid base64 content" }
            let mimeType = attachment["mimeType"]?.stringValue ?? ""
            let limit = mimeType.hasPrefix("image/") ? maxImageBytes : maxBytes
            let size = Self.decodedSize(base64)
            if size <= 0 || size > limit {
                return "Error: attachment \(label): exceeds size limit (\(size) > \(limit) bytes)"
            }
        }
        return nil
    }

    /// `fileName || type || attachment-N` (JavaScript truthiness: an empty string falls through).
    static func label(_ attachment: JSONValue, index: Int) -> String {
        for key in ["fileName", "type"] {
            if let text = attachment[key]?.stringValue, !text.isEmpty { return text }
        }
        return "attachment-\(index + 1)"
    }

    /// `data:MIME;base64,` in front of the content is dropped (`/^data:[^;]+;base64,(.*)$/`).
    static func strippingDataURLPrefix(_ text: String) -> String {
        guard text.hasPrefix("data:"), let semicolon = text.firstIndex(of: ";") else { return text }
        let mime = text[text.index(text.startIndex, offsetBy: 5)..<semicolon]
        let rest = text[semicolon...]
        guard !mime.isEmpty, rest.hasPrefix(";base64,") else { return text }
        return String(rest.dropFirst(8))
    }

    /// The gateway's minimal check: a multiple of 4 of the base64 alphabet, at most two `=` at the end.
    static func isValidBase64(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2, padding < bytes.count else { return false }
        return bytes.dropLast(padding).allSatisfy { byte in
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }

    /// `estimateBase64DecodedBytes`: three bytes per four characters, less the padding.
    static func decodedSize(_ base64: String) -> Int {
        let count = base64.utf8.count
        let padding = base64.hasSuffix("==") ? 2 : base64.hasSuffix("=") ? 1 : 0
        return max(0, count * 3 / 4 - padding)
    }
}
