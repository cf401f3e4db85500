@_spi(Engine) import ClawJSON

/// The lines the simulator writes to its file log, worded as the official gateway's `gateway/ws`
/// subsystem words them (`webchat connected conn=…`, `⇄ res ✓ chat.send 3ms id=…`).
extension GatewayLog {
    func connected(_ client: AcceptedClient) {
        write("\(client.clientMode) connected conn=\(client.connId) client=\(client.clientId) \(client.clientMode) v\(client.version)",
              subsystem: "gateway/ws")
    }

    /// One request answered: `frame` is its `res` (nil when the message was not JSON: not logged).
    func handled(method: String, id: String, frame: [UInt8]?, elapsedMs: Int64) {
        guard let frame else { return }
        let label = method.isEmpty ? "(none)" : method
        if Self.isSuccess(frame, id: id) {
            write("⇄ res ✓ \(label) \(elapsedMs)ms id=\(Self.shortId(id))", subsystem: "gateway/ws")
        } else {
            let code = (try? JSONValue.parse(frame))?["error"]?["code"]?.stringValue ?? "UNKNOWN"
            write("⇄ res ✗ \(label) \(elapsedMs)ms errorCode=\(code) id=\(Self.shortId(id))", subsystem: "gateway/ws", level: .warn)
        }
    }

    /// Whether `frame` is `{"type":"res","id":<id>,"ok":true…` (the encoder's key order), without parsing
    /// what may be megabytes of history.
    static func isSuccess(_ frame: [UInt8], id: String) -> Bool {
        var prefix = Array(#"{"type":"res","id":"#.utf8)
        JSONValue.string(id).write(to: &prefix)
        prefix.append(contentsOf: #","ok":true"#.utf8)
        return frame.starts(with: prefix)
    }

    /// Long ids as the gateway shortens them in its log: the first 8 and last 4 characters.
    static func shortId(_ id: String) -> String {
        id.count > 16 ? "\(id.prefix(8))…\(id.suffix(4))" : id
    }
}
