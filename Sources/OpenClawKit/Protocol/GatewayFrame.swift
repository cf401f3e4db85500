import Glibc

/// One frame received from the gateway: the bytes exactly as they arrived, what kind of
/// frame it is, and its routing fields. The full JSON tree is built only when asked for,
/// so `watch` validates, filters and prints a frame without allocating one.
public final class GatewayFrame {
    public enum Kind: Sendable, Equatable {
        case request(id: String, method: String)
        case response(id: String, ok: Bool)
        case event(name: String, seq: Int64?)
        /// A JSON object this client cannot route: an unknown or missing `type`, or a `res`/`event`/`req`
        /// without the members that kind needs. Skipped (printed with `--raw`), never fatal.
        case unknown(type: String?)
    }

    /// The message as received; printed as is when it is a single line.
    public let raw: [UInt8]
    public let kind: Kind
    /// Top-level and payload routing fields, read while validating.
    public let header: JSONFrameHeader

    /// The parsed frame (built on first use).
    public private(set) lazy var value: JSONValue = (try? JSONValue.parse(raw)) ?? .null

    /// Fails only for a message that is not a JSON object; any object becomes a frame.
    public init(message: [UInt8]) throws(UndecodableFrame) {
        // Scanned in place and moved, not copied: a header copy retains six strings.
        var scanned: JSONFrameHeader? = nil
        var failure: JSONError? = nil
        message.withUnsafeBytes { buffer in
            do throws(JSONError) { scanned = try JSONEventScanner.scan(buffer) } catch { failure = error }
        }
        guard let header = scanned else {
            let isJSON = (try? JSONValue.parse(message)) != nil
            throw UndecodableFrame(kind: isJSON ? .notObject : .notJSON, detail: (failure ?? JSONError("empty input", offset: 0)).message)
        }
        self.kind = Self.kind(of: header)
        self.raw = message
        self.header = header
    }

    private static func kind(of header: JSONFrameHeader) -> Kind {
        switch header.type {
        case "res":
            guard let id = header.id, let ok = header.ok else { return .unknown(type: header.type) }
            return .response(id: id, ok: ok)
        case "event":
            guard let name = header.event else { return .unknown(type: header.type) }
            return .event(name: name, seq: header.seq)
        case "req":
            guard let id = header.id, let method = header.method else { return .unknown(type: header.type) }
            return .request(id: id, method: method)
        default:
            return .unknown(type: header.type)
        }
    }

    /// Why it is skipped, when this frame is one the client cannot route.
    public var unroutable: SkippedFrame? { if case .unknown = kind { return .unknownType }; return nil }

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
        let hasLineBreak = raw.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, 0x0A, buffer.count) != nil || memchr(base, 0x0D, buffer.count) != nil
        }
        if !hasLineBreak { return raw }
        var out = [UInt8]()
        value.write(to: &out)
        return out
    }
}

/// The kinds of frames a session skips instead of failing on (forward compatibility).
public enum SkippedFrame: Sendable, Hashable, CaseIterable {
    /// A text message that is not JSON.
    case notJSON
    /// JSON that is not an object.
    case notObject
    /// An object with an unknown `type`, or without what its type needs.
    case unknownType
    /// A `res` for an id this session never sent (or already answered).
    case unexpectedResponse
}

/// A message that is not a JSON object.
public struct UndecodableFrame: Error, Sendable {
    public let kind: SkippedFrame
    /// The parser's reason, with its byte offset.
    public let detail: String
}

/// The gateway broke the protocol: exit status 6.
public struct ProtocolError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
