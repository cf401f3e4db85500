/// One frame received from the gateway: the bytes exactly as they arrived, the parsed
/// value, and what kind of frame it is.
public struct GatewayFrame: Sendable {
    public enum Kind: Sendable, Equatable {
        case request(id: String, method: String)
        case response(id: String, ok: Bool)
        case event(name: String, seq: Int64?)
    }

    /// The message as received; printed as is when it is a single line.
    public let raw: [UInt8]
    public let value: JSONValue
    public let kind: Kind

    public init(message: [UInt8]) throws(ProtocolError) {
        let value: JSONValue
        do { value = try JSONValue.parse(message) } catch {
            throw ProtocolError("malformed frame from the gateway: \(error)")
        }
        try self.init(raw: message, value: value)
    }

    public init(raw: [UInt8], value: JSONValue) throws(ProtocolError) {
        guard case .object(let object) = value else { throw ProtocolError("frame from the gateway is not a JSON object") }
        guard let type = object["type"]?.stringValue else { throw ProtocolError("frame from the gateway has no \"type\"") }
        switch type {
        case "res":
            guard let id = object["id"]?.stringValue, let ok = object["ok"]?.boolValue else {
                throw ProtocolError("res frame without a string \"id\" and a boolean \"ok\"")
            }
            kind = .response(id: id, ok: ok)
        case "event":
            guard let name = object["event"]?.stringValue else { throw ProtocolError("event frame without an \"event\" name") }
            kind = .event(name: name, seq: object["seq"]?.int64Value)
        case "req":
            guard let id = object["id"]?.stringValue, let method = object["method"]?.stringValue else {
                throw ProtocolError("req frame without \"id\" and \"method\"")
            }
            kind = .request(id: id, method: method)
        default:
            throw ProtocolError("unknown frame type \"\(type.prefix(40))\"")
        }
        self.raw = raw
        self.value = value
    }

    public var payload: JSONValue? { value["payload"] }

    public var responseID: String? { if case .response(let id, _) = kind { return id }; return nil }
    public var eventName: String? { if case .event(let name, _) = kind { return name }; return nil }

    /// A failed response's error.
    public var error: ErrorShape? {
        guard case .response(_, false) = kind else { return nil }
        return ErrorShape(value["error"] ?? .null)
    }

    /// The first of a two-stage answer (`payload.status == "accepted"`), which `--expect-final` skips.
    public var isAcceptedAck: Bool {
        guard case .response(_, true) = kind else { return false }
        return payload?["status"]?.stringValue == "accepted"
    }

    /// The frame as one line of NDJSON: the received bytes when they hold no line break,
    /// else the same value printed compactly (key order and number text survive either way).
    public var line: [UInt8] {
        if !raw.contains(0x0A) && !raw.contains(0x0D) { return raw }
        var out = [UInt8]()
        value.write(to: &out)
        return out
    }
}

/// The gateway broke the protocol: exit status 6.
public struct ProtocolError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
