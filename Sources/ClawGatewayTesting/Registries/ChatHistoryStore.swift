import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto

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

    /// Told of every appended message under the store's lock, so in transcript order: the
    /// canonical key, the stored message and its 1-based position (`session.message`).
    typealias AppendObserver = @Sendable (_ sessionKey: String, _ message: [UInt8], _ messageSeq: Int) -> Void

    private let lock = NSLock()
    private var sessions: [String: Session] = [:]
    private let onAppend: AppendObserver?

    init(onAppend: AppendObserver? = nil) { self.onAppend = onAppend }

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
            onAppend?(key, encoded, session.messages.count)
        }
    }

    /// The session's id, or nil for a session with no transcript yet.
    func sessionId(_ sessionKey: String) -> String? {
        lock.withLock { sessions[Self.canonicalKey(sessionKey)]?.sessionId }
    }

    func exists(_ sessionKey: String) -> Bool {
        let key = Self.canonicalKey(sessionKey)
        return key == "agent:main:main" || lock.withLock { sessions[key] != nil }
    }

    func allSessions() -> [(key: String, session: Session)] {
        lock.withLock { sessions.map { ($0.key, $0.value) }.sorted { $0.session.updatedAt > $1.session.updatedAt } }
    }

    /// The encoded `chat.history` payload: one page (see `HistoryPage`) of the session's transcript,
    /// with the v4 paging fields when `paging`.
    func historyPayload(sessionKey: String, limit: Int, offset: Int, maxBytes: Int? = nil, paging: Bool) -> [UInt8] {
        let (sessionId, all): (String?, [[UInt8]]) = lock.withLock {
            guard let session = sessions[Self.canonicalKey(sessionKey)] else { return (nil, []) }
            return (session.sessionId, session.messages)
        }
        let page = HistoryPage(all: all, offset: offset, limit: limit, maxBytes: maxBytes, hardCap: Self.responseByteCap)
        return page.payload(sessionKey: sessionKey, sessionId: sessionId, paging: paging)
    }

    /// `--sessions N[:AGENT]`: sessions `agent:AGENT:s0001`… with no messages, an hour apart, the first
    /// newest (an existing key is left alone).
    func createEmptySessions(_ fixture: SessionFixture, now: Int64) {
        let digits = max(4, String(fixture.count).count)
        lock.withLock {
            for i in 1...fixture.count {
                let number = String(i)
                let key = "agent:\(fixture.agentId):s" + String(repeating: "0", count: digits - number.count) + number
                guard sessions[key] == nil else { continue }
                sessions[key] = Session(sessionId: SecureRandom.uuid(), updatedAt: now - Int64(i - 1) * 3_600_000)
            }
        }
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
