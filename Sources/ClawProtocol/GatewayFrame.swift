@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// One frame received from the gateway: the bytes exactly as they arrived, what kind of
/// frame it is, and its routing fields. The full JSON tree is built only when asked for,
/// so `watch` validates, filters and prints a frame without allocating one.
@_spi(Engine) public final class GatewayFrame {
    @_spi(Engine) public enum Kind: Sendable, Equatable {
        case request(id: String, method: String)
        case response(id: String, ok: Bool)
        case event(name: String, seq: Int64?)
        /// A JSON object this client cannot route: an unknown or missing `type`, or a `res`/`event`/`req`
        /// without the members that kind needs. Skipped (printed with `--raw`), never fatal.
        case unknown(type: String?)
    }

    /// The message as received; printed as is when it is a single line.
    @_spi(Engine) public let raw: [UInt8]
    @_spi(Engine) public let kind: Kind
    /// Top-level and payload routing fields, read while validating: where they are in `raw`.
    @_spi(Engine) public let fields: ScannedFrame
    /// The routing fields as Strings (made on each use: the hot paths read `fields`).
    @_spi(Engine) public var header: JSONFrameHeader { raw.withUnsafeBytes { JSONFrameHeader(fields, bytes: $0) } }

    /// The parsed frame (built on first use).
    @_spi(Engine) public private(set) lazy var value: JSONValue = parse()

    /// A long frame's memo (see `LongStringMemo`) and what it knew of the frame; nil for a short frame
    /// (most of them: one nil reference, nothing to retain or free) or without a memo.
    private let longStrings: LongStrings?

    private final class LongStrings {
        let memo: LongStringMemo
        let known: KnownString?
        init(memo: LongStringMemo, known: KnownString?) { self.memo = memo; self.known = known }
    }

    /// A string of this frame that begins with one the memo holds: checked and decoded from where that one ends.
    var known: KnownString? { longStrings?.known }

    /// Fails only for a message that is not a JSON object; any object becomes a frame.
    @_spi(Engine) public convenience init(message: [UInt8]) throws(UndecodableFrame) {
        try self.init(message: message, utf8Checked: true)
    }

    /// The same for a text message whose UTF-8 check the WebSocket layer left to the scanner
    /// (`utf8Checked` false): accepted, it is valid UTF-8 (strict JSON is); rejected, it is checked here
    /// and the error's `isInvalidUTF8` says whether the connection must end with 1007.
    /// `shapes`: the layouts of the connection's latest frames (see `FrameShapes`).
    @_spi(Engine) public init(message: [UInt8], utf8Checked: Bool, shapes: FrameShapes? = nil) throws(UndecodableFrame) {
        var scanned = ScannedFrame()
        var failure: JSONError? = nil
        let kind = message.withUnsafeBytes { buffer -> Kind? in
            do throws(JSONError) { try JSONEventScanner.scan(buffer, into: &scanned, shapes: shapes) } catch { failure = error; return nil }
            return Self.kind(of: scanned, in: buffer)
        }
        guard let kind else { throw Self.undecodable(message, utf8Checked: utf8Checked, failure) }
        self.kind = kind
        self.raw = message
        self.fields = scanned
        longStrings = nil
    }

    /// The same for a message of a session that remembers long strings (see `LongStringMemo`; for messages
    /// of `LongStringMemo.threshold` bytes and more, as shorter ones hold none): a string that begins with
    /// one the memo holds is checked, and later parsed, only past those bytes, and this frame's longest
    /// string is remembered once it is parsed. What it accepts and reads is exactly the other's.
    @_spi(Engine) public init(message: [UInt8], utf8Checked: Bool, memo: LongStringMemo, shapes: FrameShapes? = nil) throws(UndecodableFrame) {
        var scanned = ScannedFrame()
        var failure: JSONError? = nil
        let known = memo.locate(in: message)
        let kind = message.withUnsafeBytes { buffer -> Kind? in
            do throws(JSONError) {
                if let known { try JSONEventScanner.scan(buffer, into: &scanned, known: known, shapes: shapes) }
                else { try JSONEventScanner.scan(buffer, into: &scanned, shapes: shapes) }
            } catch { failure = error; return nil }
            return Self.kind(of: scanned, in: buffer)
        }
        guard let kind else { throw Self.undecodable(message, utf8Checked: utf8Checked, failure) }
        self.kind = kind
        self.raw = message
        self.fields = scanned
        longStrings = LongStrings(memo: memo, known: known)
    }

    /// Why `message`, which the scanner refused with `failure`, is no frame.
    private static func undecodable(_ message: [UInt8], utf8Checked: Bool, _ failure: JSONError?) -> UndecodableFrame {
        if !utf8Checked && !UTF8StreamValidator.isValid(message) {
            return UndecodableFrame(kind: .notJSON, detail: "text message is not valid UTF-8", isInvalidUTF8: true)
        }
        let isJSON = (try? JSONValue.parse(message)) != nil
        return UndecodableFrame(kind: isJSON ? .notObject : .notJSON, detail: (failure ?? JSONError("empty input", offset: 0)).message)
    }

    private func parse() -> JSONValue {
        guard let longStrings else { return (try? JSONValue.parse(raw)) ?? .null }
        guard let (value, longest) = try? JSONValue.parse(raw, known: longStrings.known) else { return .null }
        if let longest { longStrings.memo.remember(raw, start: longest.start, end: longest.end, decoded: longest.value) }
        return value
    }

    private static func kind(of fields: ScannedFrame, in bytes: UnsafeRawBufferPointer) -> Kind {
        switch fields.type?.word {
        case .res?:
            guard let id = fields.id, let ok = fields.ok else { break }
            return .response(id: id.string(in: bytes), ok: ok)
        case .event?:
            guard let name = fields.event else { break }
            return .event(name: name.string(in: bytes), seq: fields.seq)
        case .req?:
            guard let id = fields.id, let method = fields.method else { break }
            return .request(id: id.string(in: bytes), method: method.string(in: bytes))
        default:
            break
        }
        return .unknown(type: fields.type?.string(in: bytes))
    }

    /// A routing string of this frame (see `ScannedString`).
    @inline(__always)
    @_spi(Engine) public func string(_ scanned: ScannedString?) -> String? {
        guard let scanned else { return nil }
        if let text = scanned.word.text { return text }
        return raw.withUnsafeBytes { scanned.string(in: $0) }
    }

    /// `payload.runId`, `payload.sessionKey`, `payload.state` (see `JSONFrameHeader`).
    @_spi(Engine) public var runId: String? { string(fields.runId) }
    @_spi(Engine) public var sessionKey: String? { string(fields.sessionKey) }
    @_spi(Engine) public var state: String? { string(fields.state) }

    /// True when `payload.runId` is exactly these UTF-8 bytes (no String made).
    @_spi(Engine) public func runId(is utf8: [UInt8]) -> Bool {
        guard let runId = fields.runId else { return false }
        return raw.withUnsafeBytes { bytes in utf8.withUnsafeBufferPointer { runId.equals($0, in: bytes) } }
    }

    /// A `chat` or `agent` event (they carry `payload.runId` and a per-run `seq`), read from the routing word.
    @_spi(Engine) public var isRunEvent: Bool {
        guard case .event = kind else { return false }
        let word = fields.event?.word
        return word == .chat || word == .agent
    }

    /// A `chat` event whose state ends its run (`ChatState.endsRun`), read from the routing words.
    @_spi(Engine) public var endsRun: Bool {
        guard case .event = kind, fields.event?.word == .chat else { return false }
        let state = fields.state?.word
        return state == .final || state == .aborted || state == .error
    }

    @_spi(Engine) public var payload: JSONValue? { value["payload"] }

    @_spi(Engine) public var responseID: String? { if case .response(let id, _) = kind { return id }; return nil }
    @_spi(Engine) public var eventName: String? { if case .event(let name, _) = kind { return name }; return nil }

    /// A failed response's error.
    @_spi(Engine) public var error: ErrorShape? {
        guard case .response(_, false) = kind else { return nil }
        return ErrorShape(value["error"] ?? .null)
    }

    /// The first of a two-stage answer (`payload.status == "accepted"`), which `--expect-final` skips.
    @_spi(Engine) public var isAcceptedAck: Bool {
        // Read from the bytes: a one-shot reply is printed as received and never needs its tree.
        guard case .response(_, true) = kind, let payload = fields.payloadRange else { return false }
        return raw.withUnsafeBytes { JSONMemberLookup.string(named: "status", inObject: payload, of: $0) } == "accepted"
    }

    /// The frame as one line of NDJSON: the received bytes when they hold no line break,
    /// else the same value printed compactly (key order and number text survive either way).
    @_spi(Engine) public var line: [UInt8] {
        if !fields.hasLineBreak { return raw }
        var out = [UInt8]()
        value.write(to: &out)
        return out
    }
}

/// The kinds of frames a session skips instead of failing on (forward compatibility).
@_spi(Engine) public enum SkippedFrame: Sendable, Hashable, CaseIterable {
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
@_spi(Engine) public struct UndecodableFrame: Error, Sendable {
    @_spi(Engine) public let kind: SkippedFrame
    /// The parser's reason, with its byte offset.
    @_spi(Engine) public let detail: String
    /// A text message the WebSocket layer left unchecked turned out not to be UTF-8 (see `GatewayFrame.init(message:utf8Checked:)`).
    @_spi(Engine) public var isInvalidUTF8 = false

    init(kind: SkippedFrame, detail: String, isInvalidUTF8: Bool = false) {
        self.kind = kind
        self.detail = detail
        self.isInvalidUTF8 = isInvalidUTF8
    }
}

/// The gateway broke the protocol: exit status 6.
@_spi(Engine) public struct ProtocolError: Error, Sendable, CustomStringConvertible {
    @_spi(Engine) public let message: String
    @_spi(Engine) public init(_ message: String) { self.message = message }
    @_spi(Engine) public var description: String { message }
}
