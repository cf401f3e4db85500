@_spi(Engine) import ClawJSON

/// One `chat.history` page (protocol-2026-09 "chat.history paging, exactly"; official
/// `resolveChatHistoryNextOffset`): with n messages numbered oldest = 0, `offset` O and `limit` L
/// select records [max(0, n-O-L), n-O), oldest first. A byte budget drops the oldest whole
/// messages but never the newest, and `nextOffset` continues right after the oldest returned.
struct HistoryPage {
    var messages: ArraySlice<[UInt8]>
    var totalMessages: Int
    /// O + the number of messages returned.
    var nextOffset: Int

    var hasMore: Bool { nextOffset < totalMessages }

    /// `maxBytes` is the caller's soft budget; `hardCap` the server's own, which always applies.
    init(all: [[UInt8]], offset: Int, limit: Int, maxBytes: Int?, hardCap: Int) {
        let end = max(0, all.count - offset)
        let start = max(0, end - limit)
        var kept = all[start..<end]
        let budget = min(maxBytes ?? hardCap, hardCap)
        // One comma per message, as the page's JSON array counts them.
        var bytes = kept.reduce(0) { $0 + $1.count + 1 }
        while bytes > budget, kept.count > 1, let oldest = kept.first {
            bytes -= oldest.count + 1
            kept = kept.dropFirst()
        }
        messages = kept
        totalMessages = all.count
        nextOffset = offset + kept.count
    }

    /// The encoded payload: `{sessionKey, sessionId?, thinkingLevel?, verboseLevel?, messages}` and,
    /// with `paging` (v4), `nextOffset` (only when there is more), `hasMore`, `totalMessages`.
    func payload(sessionKey: String, sessionId: String?, paging: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(messages.reduce(0) { $0 + $1.count + 1 } + 224)
        out.append(contentsOf: #"{"sessionKey":"#.utf8)
        JSONValue.string(sessionKey).write(to: &out)
        if let sessionId {
            out.append(contentsOf: #","sessionId":"#.utf8)
            JSONValue.string(sessionId).write(to: &out)
            out.append(contentsOf: #","thinkingLevel":"off","verboseLevel":"off""#.utf8)
        }
        out.append(contentsOf: #","messages":["#.utf8)
        var first = true
        for message in messages {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: message)
        }
        out.append(UInt8(ascii: "]"))
        if paging {
            if hasMore { out.append(contentsOf: #","nextOffset":\#(nextOffset)"#.utf8) }
            out.append(contentsOf: #","hasMore":\#(hasMore),"totalMessages":\#(totalMessages)"#.utf8)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
