import Foundation
import ClawSystem
import ClawJSON
import ClawCrypto

/// In-memory transcripts per session. Messages are kept display-sanitised and pre-encoded, so a
/// `chat.history` answer is assembled from bytes (it must stay fast for the benchmark).
final class ChatHistoryStore: @unchecked Sendable {
    struct Session {
        var sessionId: String
        var messages: [[UInt8]] = []
        var updatedAt: Int64
        var lastText: String = ""
        var lastRole: String = ""
    }

    /// The server caps history answers at about 6 MiB of messages.
    static let responseByteCap = 6 * 1024 * 1024
    static let textCap = 12_000
    static let messageCap = 128 * 1024

    private let lock = NSLock()
    private var sessions: [String: Session] = [:]

    /// `main` and `agent:main:main` are the same session (§4).
    static func canonicalKey(_ key: String) -> String {
        key == "main" ? "agent:main:main" : key
    }

    func append(sessionKey: String, message: JSONValue) {
        let encoded = Self.sanitisedBytes(message)
        let text = Self.plainText(message)
        let role = message["role"]?.stringValue ?? ""
        lock.withLock {
            let key = Self.canonicalKey(sessionKey)
            var session = sessions[key] ?? Session(sessionId: SecureRandom.uuid(), updatedAt: WallClock.milliseconds())
            session.messages.append(encoded)
            session.updatedAt = WallClock.milliseconds()
            session.lastText = text
            session.lastRole = role
            sessions[key] = session
        }
    }

    func exists(_ sessionKey: String) -> Bool {
        let key = Self.canonicalKey(sessionKey)
        return key == "agent:main:main" || lock.withLock { sessions[key] != nil }
    }

    func allSessions() -> [(key: String, session: Session)] {
        lock.withLock { sessions.map { ($0.key, $0.value) }.sorted { $0.session.updatedAt > $1.session.updatedAt } }
    }

    /// The encoded `chat.history` payload: the last `limit` messages before the newest `offset`.
    func historyPayload(sessionKey: String, limit: Int, offset: Int) -> [UInt8] {
        let (sessionId, selected): (String?, ArraySlice<[UInt8]>) = lock.withLock {
            guard let session = sessions[Self.canonicalKey(sessionKey)] else { return (nil, []) }
            let end = max(0, session.messages.count - offset)
            let start = max(0, end - limit)
            return (session.sessionId, session.messages[start..<end])
        }
        var kept = selected
        var total = kept.reduce(0) { $0 + $1.count + 1 }
        while total > Self.responseByteCap, let first = kept.first {
            total -= first.count + 1
            kept = kept.dropFirst()
        }
        var out = [UInt8]()
        out.reserveCapacity(total + 160)
        out.append(contentsOf: #"{"sessionKey":"#.utf8)
        JSONValue.string(sessionKey).write(to: &out)
        if let sessionId {
            out.append(contentsOf: #","sessionId":"#.utf8)
            JSONValue.string(sessionId).write(to: &out)
            out.append(contentsOf: #","thinkingLevel":"off","verboseLevel":"off""#.utf8)
        }
        out.append(contentsOf: #","messages":["#.utf8)
        var first = true
        for message in kept {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: message)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// Preloads `count` alternating user/assistant messages of `bytes` characters into `main`.
    func loadFixture(count: Int, bytes: Int) {
        let words = LoremIpsum.text(wordCount: bytes / 4 + 2)
        var filler = String(words.prefix(bytes))
        while filler.utf8.count < bytes { filler += "x" }
        let start = WallClock.milliseconds() - Int64(count) * 1000
        for i in 0..<count {
            let role = i % 2 == 0 ? "user" : "assistant"
            append(sessionKey: "main", message: TranscriptMessage.make(role: role, text: filler, timestamp: start + Int64(i) * 1000))
        }
    }

    /// The stored (display) form: long texts truncated, oversized messages replaced (§4.1).
    static func sanitisedBytes(_ message: JSONValue) -> [UInt8] {
        var value = message
        if case .object(var object) = value, case .array(var parts)? = object["content"] {
            for i in parts.indices {
                if case .object(var part) = parts[i], let text = part["text"]?.stringValue, text.count > textCap {
                    part["text"] = .string(String(text.prefix(textCap)) + "\n...(truncated)...")
                    parts[i] = .object(part)
                }
            }
            object["content"] = .array(parts)
            value = .object(object)
        }
        let encoded = FrameEncoder.encode(value)
        guard encoded.count > messageCap else { return encoded }
        let placeholder: JSONValue = [
            "role": message["role"] ?? "assistant", "timestamp": message["timestamp"] ?? 0,
            "content": [["type": "text", "text": "[chat.history omitted: message too large]"]],
            "__openclaw": ["truncated": true, "reason": "oversized"],
        ]
        return FrameEncoder.encode(placeholder)
    }

    static func plainText(_ message: JSONValue) -> String {
        (message["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined()
    }
}

/// Transcript message shapes (pi-ai messages, as `chat.history` and chat events carry them).
enum TranscriptMessage {
    static func make(role: String, text: String, timestamp: Int64, stopReason: String? = nil,
                     errorMessage: String? = nil) -> JSONValue {
        var object: JSONObject = ["role": .string(role), "content": [["type": "text", "text": .string(text)]]]
        if role == "assistant" {
            object["api"] = "openai-responses"
            object["provider"] = "openclaw-sim"
            object["model"] = "sim-1"
            object["stopReason"] = .string(stopReason ?? "stop")
            if let errorMessage { object["errorMessage"] = .string(errorMessage) }
        }
        object["timestamp"] = JSONValue(timestamp)
        return .object(object)
    }

    /// The assistant message as chat events carry it: `{role, content:[{type:"text",text}], timestamp}`.
    static func eventMessage(text: String, timestamp: Int64) -> JSONValue {
        ["role": "assistant", "content": [["type": "text", "text": .string(text)]], "timestamp": JSONValue(timestamp)]
    }
}

/// Deterministic filler text for `--reply lorem:N` and fixtures.
enum LoremIpsum {
    static let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
                        "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua"]

    static func words(count: Int) -> [String] { (0..<count).map { words[$0 % words.count] } }
    static func text(wordCount: Int) -> String { words(count: wordCount).joined(separator: " ") }
}
