import Glibc

/// The routing fields of a gateway frame (`{"type":…,"event":…,"seq":…}`), read without building a tree.
public struct JSONFrameHeader: Sendable, Equatable {
    public var type: String?
    public var event: String?
    public var id: String?
    public var method: String?
    /// The top-level `seq` when it is an integer that fits.
    public var seq: Int64?
    public var ok: Bool?
    /// Byte range of the top-level `payload` value in the scanned input, to parse only that part when needed.
    public var payloadRange: Range<Int>?
    /// `payload.runId`, `payload.sessionKey`, `payload.state` and `payload.seq` when the payload is an
    /// object holding them with those types: what `watch` filters and checks sequences on.
    public var runId: String?
    public var sessionKey: String?
    public var state: String?
    public var runSeq: Int64?

    public init() {}
}

/// Validates a frame as strict JSON and picks out its top-level routing fields, so `watch` can route,
/// filter and check sequence numbers, then print the frame bytes as received without a full parse.
public enum JSONEventScanner {
    /// Scans one JSON object; the whole input is validated exactly as `JSONValue.parse` would.
    /// The first of duplicate top-level members wins, as in `JSONObject`'s subscript.
    public static func scan(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> JSONFrameHeader {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw JSONError("empty input", offset: 0) }
        var reader = JSONReader(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count,
            maxDepth: maxDepth, json5: false, rejectDuplicateKeys: false)
        return try reader.scanFrame()
    }

    public static func scan(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONError) -> JSONFrameHeader {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONFrameHeader in try scan(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }
}

extension JSONReader {
    mutating func scanFrame() throws(JSONError) -> JSONFrameHeader {
        var header = JSONFrameHeader()
        try skipSpace()
        guard i < count else { throw JSONError("no value, only whitespace", offset: i) }
        guard base[i] == UInt8(ascii: "{") else { throw JSONError("frame is not a JSON object", offset: i) }
        guard maxDepth >= 1 else { throw JSONError("nesting deeper than \(maxDepth) levels", offset: i) }
        i += 1
        try skipSpace()
        if i < count && base[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            var seenFields: UInt8 = 0  // one bit per routing field already read
            while true {
                let key = try readMemberKey()
                let field: UInt8
                switch key {
                case .type: field = 1
                case .event: field = 2
                case .id: field = 4
                case .method: field = 8
                case .seq: field = 16
                case .ok: field = 32
                case .payload: field = 64
                default: field = 0
                }
                let first = field != 0 && seenFields & field == 0
                seenFields |= field
                let c = base[i]
                switch key {
                case .type where first && c == UInt8(ascii: "\""): header.type = try readString(quote: c)
                case .event where first && c == UInt8(ascii: "\""): header.event = try readString(quote: c)
                case .id where first && c == UInt8(ascii: "\""): header.id = try readString(quote: c)
                case .method where first && c == UInt8(ascii: "\""): header.method = try readString(quote: c)
                case .seq where first && (c == UInt8(ascii: "-") || isDigit(c)):
                    let start = i
                    i = try numberEnd(from: i)
                    header.seq = Int64(String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self))
                case .ok where first && (c == UInt8(ascii: "t") || c == UInt8(ascii: "f")):
                    try expectLiteral(c == UInt8(ascii: "t") ? "true" : "false")
                    header.ok = c == UInt8(ascii: "t")
                case .payload where first:
                    let start = i
                    if c == UInt8(ascii: "{") { try scanPayload(into: &header) } else { try skipValue(depth: 1) }
                    header.payloadRange = start..<i
                default:
                    try skipValue(depth: 1)
                }
                try skipSpace()
                guard i < count else { throw JSONError("unexpected end of input inside object", offset: i) }
                if base[i] == UInt8(ascii: "}") {
                    i += 1
                    break
                }
                guard base[i] == UInt8(ascii: ",") else {
                    throw JSONError("expected ',' or '}', found \(describe(base[i]))", offset: i)
                }
                i += 1
                try skipSpace()
            }
        }
        try skipSpace()
        if i < count { throw JSONError("unexpected \(describe(base[i])) after the value", offset: i) }
        return header
    }

    /// The member names the scanner routes on, recognised from the key's bytes without making a String.
    enum RoutingKey { case type, event, id, method, seq, ok, payload, runId, sessionKey, state, other }

    func routingKey(_ key: (start: Int, end: Int, escaped: Bool)) -> RoutingKey {
        if key.escaped { return scratch.withUnsafeBufferPointer { Self.routingKey($0) } }
        return Self.routingKey(UnsafeBufferPointer(start: base + key.start, count: key.end - key.start))
    }

    static func routingKey(_ bytes: UnsafeBufferPointer<UInt8>) -> RoutingKey {
        func equals(_ name: StaticString) -> Bool {
            bytes.count == name.utf8CodeUnitCount && memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
        }
        switch bytes.count {
        case 2: return equals("id") ? .id : equals("ok") ? .ok : .other
        case 3: return equals("seq") ? .seq : .other
        case 4: return equals("type") ? .type : .other
        case 5: return equals("event") ? .event : equals("runId") ? .runId : equals("state") ? .state : .other
        case 6: return equals("method") ? .method : .other
        case 7: return equals("payload") ? .payload : .other
        case 10: return equals("sessionKey") ? .sessionKey : .other
        default: return .other
        }
    }

    /// Reads `"key" :` and the space after it, leaving `i` on the member's value.
    private mutating func readMemberKey() throws(JSONError) -> RoutingKey {
        guard i < count else { throw JSONError("unexpected end of input inside object", offset: i) }
        guard base[i] == UInt8(ascii: "\"") else {
            throw JSONError("expected a string key, found \(describe(base[i]))", offset: i)
        }
        let scanned = try scanString(quote: UInt8(ascii: "\""))
        let key = routingKey(scanned)  // after the scan: it reads `scratch`
        try skipSpace()
        guard i < count, base[i] == UInt8(ascii: ":") else {
            if i >= count { throw JSONError("unexpected end of input inside object", offset: i) }
            throw JSONError("expected ':' after the key, found \(describe(base[i]))", offset: i)
        }
        i += 1
        try skipSpace()
        guard i < count else { throw JSONError("unexpected end of input, expected a value", offset: i) }
        return key
    }

    /// Steps over the payload object at `i` (depth 2), picking out its routing members.
    private mutating func scanPayload(into header: inout JSONFrameHeader) throws(JSONError) {
        guard maxDepth >= 2 else { throw JSONError("nesting deeper than \(maxDepth) levels", offset: i) }
        i += 1
        try skipSpace()
        if i < count && base[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            let key = try readMemberKey()
            let c = base[i]
            switch key {
            case .runId where c == UInt8(ascii: "\"") && header.runId == nil: header.runId = try readString(quote: c)
            case .sessionKey where c == UInt8(ascii: "\"") && header.sessionKey == nil: header.sessionKey = try readString(quote: c)
            case .state where c == UInt8(ascii: "\"") && header.state == nil: header.state = try readString(quote: c)
            case .seq where (c == UInt8(ascii: "-") || isDigit(c)) && header.runSeq == nil:
                let start = i
                i = try numberEnd(from: i)
                header.runSeq = Int64(String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self))
            default:
                try skipValue(depth: 2)
            }
            try skipSpace()
            guard i < count else { throw JSONError("unexpected end of input inside object", offset: i) }
            if base[i] == UInt8(ascii: "}") { i += 1; return }
            guard base[i] == UInt8(ascii: ",") else {
                throw JSONError("expected ',' or '}', found \(describe(base[i]))", offset: i)
            }
            i += 1
            try skipSpace()
        }
    }

    /// Validates and steps over one strict JSON value at `i` that sits inside `depth` open containers,
    /// keeping a bit per open container instead of recursing.
    mutating func skipValue(depth: Int) throws(JSONError) {
        var open: [Bool] = []  // true for an object
        readValue: while true {
            guard i < count else { throw JSONError("unexpected end of input, expected a value", offset: i) }
            let c = base[i]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth + open.count >= maxDepth { throw JSONError("nesting deeper than \(maxDepth) levels", offset: i) }
                let isObject = c == UInt8(ascii: "{")
                i += 1
                try skipSpace()
                if i < count && base[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                } else {
                    if isObject { try skipKey() }
                    open.append(isObject)
                    try skipSpace()
                    continue readValue
                }
            case UInt8(ascii: "\""): _ = try scanString(quote: c)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): i = try numberEnd(from: i)
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            default: throw JSONError("unexpected \(describe(c)), expected a value", offset: i)
            }
            while let isObject = open.last {
                try skipSpace()
                guard i < count else {
                    throw JSONError("unexpected end of input inside \(isObject ? "object" : "array")", offset: i)
                }
                let c = base[i]
                if c == UInt8(ascii: ",") {
                    i += 1
                    try skipSpace()
                    if isObject { try skipKey() }
                    try skipSpace()
                    continue readValue
                }
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    let expected = isObject ? "',' or '}'" : "',' or ']'"
                    throw JSONError("expected \(expected), found \(describe(c))", offset: i)
                }
                i += 1
                open.removeLast()
            }
            return
        }
    }

    /// Validates `"key" :` at `i` without keeping the key.
    private mutating func skipKey() throws(JSONError) {
        guard i < count else { throw JSONError("unexpected end of input inside object", offset: i) }
        guard base[i] == UInt8(ascii: "\"") else {
            throw JSONError("expected a string key, found \(describe(base[i]))", offset: i)
        }
        _ = try scanString(quote: UInt8(ascii: "\""))
        try skipSpace()
        guard i < count, base[i] == UInt8(ascii: ":") else {
            if i >= count { throw JSONError("unexpected end of input inside object", offset: i) }
            throw JSONError("expected ':' after the key, found \(describe(base[i]))", offset: i)
        }
        i += 1
    }
}
