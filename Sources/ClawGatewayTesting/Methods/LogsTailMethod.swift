@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

extension MethodRouter {
    /// `logs.tail {cursor?, limit?, maxBytes?}` → `{file, cursor, size, lines, truncated, reset}`; the
    /// official handler sends both flags always, and defaults to 500 lines within 250 000 bytes.
    func logsTail(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.logsTail, GatewaySchemas.logsTail, params) { return bad }
        let tail = gateway.fileLog.tail(cursor: params["cursor"]?.intValue, limit: params["limit"]?.intValue ?? 500,
                                        maxBytes: params["maxBytes"]?.intValue ?? 250_000)
        return FrameEncoder.success(id: id, payload: [
            "file": .string(tail.file), "cursor": JSONValue(tail.cursor), "size": JSONValue(tail.size),
            "lines": JSONValue(tail.lines), "truncated": .bool(tail.truncated), "reset": .bool(tail.reset),
        ])
    }
}
