import ClawSystem

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
    /// Some member name anywhere in the frame is one `SecretKeyName.matches` accepts (escapes decoded):
    /// when false, the frame holds nothing to redact and can be printed as received.
    public var hasSecretKey = false

    public init() {}

    /// The strings of `scanned`, read from the bytes it was scanned from.
    public init(_ scanned: ScannedFrame, bytes: UnsafeRawBufferPointer) {
        type = scanned.type?.string(in: bytes)
        event = scanned.event?.string(in: bytes)
        id = scanned.id?.string(in: bytes)
        method = scanned.method?.string(in: bytes)
        seq = scanned.seq
        ok = scanned.ok
        payloadRange = scanned.payloadRange
        runId = scanned.runId?.string(in: bytes)
        sessionKey = scanned.sessionKey?.string(in: bytes)
        state = scanned.state?.string(in: bytes)
        runSeq = scanned.runSeq
        hasSecretKey = scanned.hasSecretKey
    }
}

/// The protocol's common routing words, recognised while scanning so that routing compares a byte,
/// not a String (and a String for one is a literal: no allocation, no UTF-8 re-validation).
public enum RoutingWord: UInt8, Sendable {
    case other, res, req, event, chat, main, tick, delta, final, agent, error, health, status, aborted, shutdown

    public var text: String? {
        switch self {
        case .other: return nil
        case .res: return "res"
        case .req: return "req"
        case .event: return "event"
        case .chat: return "chat"
        case .main: return "main"
        case .tick: return "tick"
        case .delta: return "delta"
        case .final: return "final"
        case .agent: return "agent"
        case .error: return "error"
        case .health: return "health"
        case .status: return "status"
        case .aborted: return "aborted"
        case .shutdown: return "shutdown"
        }
    }
}

/// Where a routing string sits in the scanned bytes: its contents between the quotes, whether they
/// hold escapes (then the String is decoded again when asked for), and the routing word it is.
public struct ScannedString: Sendable, Equatable {
    public var start: Int
    public var end: Int
    public var escaped: Bool
    public var word: RoutingWord

    /// The string's value; `bytes` must be the buffer it was scanned from.
    public func string(in bytes: UnsafeRawBufferPointer) -> String {
        if let text = word.text { return text }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if !escaped { return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self) }
        var reader = JSONReader(base: base, count: bytes.count, maxDepth: 1, json5: false, rejectDuplicateKeys: false)
        reader.i = start - 1
        _ = try? reader.scanString(quote: UInt8(ascii: "\""))
        return String(decoding: reader.scratch, as: UTF8.self)
    }

    /// True when the string's value is exactly `utf8` (compared on the bytes when it has no escapes).
    public func equals(_ utf8: UnsafeBufferPointer<UInt8>, in bytes: UnsafeRawBufferPointer) -> Bool {
        if escaped {
            var value = string(in: bytes)
            return value.withUTF8 { $0.count == utf8.count && (utf8.count == 0 || Memory.equal($0.baseAddress!, utf8.baseAddress!, count: utf8.count)) }
        }
        return end - start == utf8.count
            && (utf8.count == 0 || Memory.equal(bytes.baseAddress! + start, utf8.baseAddress!, count: utf8.count))
    }
}

/// What the scanner read, without a String: plain data, so a frame copies and frees it for nothing.
public struct ScannedFrame: Sendable, Equatable {
    public var type: ScannedString?
    public var event: ScannedString?
    public var id: ScannedString?
    public var method: ScannedString?
    public var seq: Int64?
    public var ok: Bool?
    public var payloadRange: Range<Int>?
    public var runId: ScannedString?
    public var sessionKey: ScannedString?
    public var state: ScannedString?
    public var runSeq: Int64?
    /// See `JSONFrameHeader.hasSecretKey`.
    public var hasSecretKey = false
    /// The frame holds a raw line break (only possible as whitespace between tokens in valid JSON).
    public var hasLineBreak = false

    public init() {}
}

/// Validates a frame as strict JSON and picks out its top-level routing fields, so `watch` can route,
/// filter and check sequence numbers, then print the frame bytes as received without a full parse.
public enum JSONEventScanner {
    /// Scans one JSON object; the whole input is validated exactly as `JSONValue.parse` would.
    /// The first of duplicate top-level members wins, as in `JSONObject`'s subscript.
    public static func scan(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> JSONFrameHeader {
        JSONFrameHeader(try fields(bytes, maxDepth: maxDepth), bytes: bytes)
    }

    /// The same scan, leaving the strings in the input (see `ScannedFrame`).
    public static func fields(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> ScannedFrame {
        var fields = ScannedFrame()
        try scan(bytes, into: &fields, maxDepth: maxDepth)
        return fields
    }

    /// The same, into `fields` (which must be fresh): a frame is ~200 bytes, not copied on the way.
    public static func scan(_ bytes: UnsafeRawBufferPointer, into fields: inout ScannedFrame, maxDepth: Int = 256) throws(JSONError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw JSONError("empty input", offset: 0) }
        let start = base.assumingMemoryBound(to: UInt8.self)
        if FastFrameScanner.scan(start, count: bytes.count, maxDepth: maxDepth, into: &fields) { return }
        var reader = JSONReader(base: start, count: bytes.count, maxDepth: maxDepth, json5: false, rejectDuplicateKeys: false)
        fields = try reader.scanFrame()
    }

    public static func scan(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONError) -> JSONFrameHeader {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONFrameHeader in try scan(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }
}

extension JSONReader {
    mutating func scanFrame() throws(JSONError) -> ScannedFrame {
        var header = ScannedFrame()
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
                case .type where first && c == UInt8(ascii: "\""): header.type = try readRoutingString(quote: c)
                case .event where first && c == UInt8(ascii: "\""): header.event = try readRoutingString(quote: c)
                case .id where first && c == UInt8(ascii: "\""): header.id = try readRoutingString(quote: c)
                case .method where first && c == UInt8(ascii: "\""): header.method = try readRoutingString(quote: c)
                case .seq where first && (c == UInt8(ascii: "-") || isDigit(c)):
                    let start = i
                    i = try numberEnd(from: i)
                    header.seq = Self.int64(UnsafeBufferPointer(start: base + start, count: i - start))
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
        header.hasSecretKey = sawSecretKey
        header.hasLineBreak = sawLineBreak
        return header
    }

    /// A routing string value: where it is, and which of the protocol's common words it is.
    private mutating func readRoutingString(quote: UInt8) throws(JSONError) -> ScannedString {
        let (start, end, escaped) = try scanString(quote: quote)
        let word = escaped ? scratch.withUnsafeBufferPointer { Self.knownWord($0) }
            : Self.knownWord(UnsafeBufferPointer(start: base + start, count: end - start))
        return ScannedString(start: start, end: end, escaped: escaped, word: word)
    }

    static func knownWord(_ bytes: UnsafeBufferPointer<UInt8>) -> RoutingWord {
        @inline(__always) func equals(_ word: StaticString) -> Bool {
            Memory.equal(bytes.baseAddress!, word.utf8Start, count: bytes.count)
        }
        switch bytes.count {
        case 3: return equals("res") ? .res : equals("req") ? .req : .other
        case 4: return equals("chat") ? .chat : equals("main") ? .main : equals("tick") ? .tick : .other
        case 5:
            return equals("event") ? .event : equals("delta") ? .delta : equals("final") ? .final
                : equals("agent") ? .agent : equals("error") ? .error : .other
        case 6: return equals("health") ? .health : equals("status") ? .status : .other
        case 7: return equals("aborted") ? .aborted : .other
        case 8: return equals("shutdown") ? .shutdown : .other
        default: return .other
        }
    }

    /// The value of a JSON number already validated by `numberEnd`, when it is an integer that fits an
    /// Int64 (what `Int64(String)` accepts: fractions and exponents give nil).
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var k = 0
        let negative = bytes.count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { k = 1 }
        guard k < bytes.count else { return nil }
        if bytes.count &- k <= 18, let p = bytes.baseAddress {
            // Up to 18 digits cannot overflow: no checks per digit.
            var value: Int64 = 0
            while k < bytes.count {
                let digit = p[k] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int64(digit)
                k &+= 1
            }
            return negative ? 0 &- value : value
        }
        var value: Int64 = 0
        while k < bytes.count {
            let digit = bytes[k] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min fits.
            let (next, o2) = times10.subtractingReportingOverflow(Int64(digit))
            if o1 || o2 { return nil }
            value = next
            k += 1
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    /// Notes a member name `SecretKeyName.matches` accepts, for `JSONFrameHeader.hasSecretKey`.
    @inline(__always)
    private mutating func noteKey(_ key: (start: Int, end: Int, escaped: Bool)) {
        if sawSecretKey { return }
        if key.escaped {
            sawSecretKey = scratch.withUnsafeBufferPointer { SecretKeyName.matches($0) }
        } else {
            sawSecretKey = SecretKeyName.matches(UnsafeBufferPointer(start: base + key.start, count: key.end - key.start))
        }
    }

    /// The member names the scanner routes on, recognised from the key's bytes without making a String.
    enum RoutingKey { case type, event, id, method, seq, ok, payload, runId, sessionKey, state, other }

    func routingKey(_ key: (start: Int, end: Int, escaped: Bool)) -> RoutingKey {
        if key.escaped { return scratch.withUnsafeBufferPointer { Self.routingKey($0) } }
        return Self.routingKey(UnsafeBufferPointer(start: base + key.start, count: key.end - key.start))
    }

    static func routingKey(_ bytes: UnsafeBufferPointer<UInt8>) -> RoutingKey {
        func equals(_ name: StaticString) -> Bool {
            bytes.count == name.utf8CodeUnitCount && Memory.equal(bytes.baseAddress!, name.utf8Start, count: bytes.count)
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
        if key == .other { noteKey(scanned) }  // no routing name is a secret name
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
    private mutating func scanPayload(into header: inout ScannedFrame) throws(JSONError) {
        guard maxDepth >= 2 else { throw JSONError("nesting deeper than \(maxDepth) levels", offset: i) }
        i += 1
        try skipSpace()
        if i < count && base[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            let key = try readMemberKey()
            let c = base[i]
            switch key {
            case .runId where c == UInt8(ascii: "\"") && header.runId == nil: header.runId = try readRoutingString(quote: c)
            case .sessionKey where c == UInt8(ascii: "\"") && header.sessionKey == nil: header.sessionKey = try readRoutingString(quote: c)
            case .state where c == UInt8(ascii: "\"") && header.state == nil: header.state = try readRoutingString(quote: c)
            case .seq where (c == UInt8(ascii: "-") || isDigit(c)) && header.runSeq == nil:
                let start = i
                i = try numberEnd(from: i)
                header.runSeq = Self.int64(UnsafeBufferPointer(start: base + start, count: i - start))
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
    /// keeping a bit per open container instead of recursing (in a register for the first 64 levels,
    /// so the usual value costs no allocation).
    mutating func skipValue(depth: Int) throws(JSONError) {
        var open = ContainerBits()
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
                    open.push(isObject)
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

    /// A stack of "is an object" bits: 64 in a word, deeper levels in an array.
    struct ContainerBits {
        private var low: UInt64 = 0
        private var deeper: [Bool] = []
        private(set) var count = 0

        @inline(__always) mutating func push(_ isObject: Bool) {
            if count < 64 {
                if isObject { low |= 1 << UInt64(count) } else { low &= ~(1 << UInt64(count)) }
            } else {
                deeper.append(isObject)
            }
            count += 1
        }

        @inline(__always) var last: Bool? {
            guard count > 0 else { return nil }
            return count <= 64 ? low & (1 << UInt64(count - 1)) != 0 : deeper[deeper.count - 1]
        }

        @inline(__always) mutating func removeLast() {
            count -= 1
            if count >= 64 { deeper.removeLast() }
        }
    }

    /// Validates `"key" :` at `i` without keeping the key.
    private mutating func skipKey() throws(JSONError) {
        guard i < count else { throw JSONError("unexpected end of input inside object", offset: i) }
        guard base[i] == UInt8(ascii: "\"") else {
            throw JSONError("expected a string key, found \(describe(base[i]))", offset: i)
        }
        noteKey(try scanString(quote: UInt8(ascii: "\"")))
        try skipSpace()
        guard i < count, base[i] == UInt8(ascii: ":") else {
            if i >= count { throw JSONError("unexpected end of input inside object", offset: i) }
            throw JSONError("expected ':' after the key, found \(describe(base[i]))", offset: i)
        }
        i += 1
    }
}

/// The scanner's fast path: one loop with its position in a register, for the frames a gateway sends
/// (compact JSON, ASCII member names, routing strings without escapes, nesting under 63 levels). It
/// returns nil for anything else, valid or not, and `JSONReader.scanFrame` then decides, so what it
/// accepts and the fields it reads are exactly the slow path's: a frame it returns would read the same
/// there, byte for byte, including `hasSecretKey` (every member name goes through `SecretKeyName.matches`
/// except the routing names, none of which is a secret's).
enum FastFrameScanner {
    static func scan(_ base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) -> ScannedFrame? {
        var f = ScannedFrame()
        return scan(base, count: count, maxDepth: maxDepth, into: &f) ? f : nil
    }

    /// Scans into `f` (fresh); false: not taken (`f` is then garbage). The frame's own members carry the
    /// routing fields and the payload object's members the run's; below those only validation and the
    /// secret-name check remain, in `skipValue`'s loop.
    static func scan(_ base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, into f: inout ScannedFrame) -> Bool {
        guard count >= 2, base[0] == UInt8(ascii: "{"), maxDepth >= 2 else { return false }
        var i = 1
        var secret = false
        if base[1] == UInt8(ascii: "}") {
            i = 2
        } else {
            var seen: UInt8 = 0  // routing names already met: the first of duplicates wins
            while true {
                guard let (start, length) = key(base, count, &i), i < count else { return false }
                var name = routingName(base + start, length, count &- start)
                if name > 7 { name = 0 }  // the run's names are routed in the payload only
                if name == 0 {
                    if !secret { secret = isSecretKey(base + start, length, count &- start) }
                } else {
                    let bit: UInt8 = 1 &<< UInt8(name &- 1)
                    if seen & bit != 0 { name = 0 }
                    seen |= bit
                }
                let c = base[i]
                let valueStart = i
                switch name {
                case 1...4 where c == UInt8(ascii: "\""):  // one pattern: a `where` binds only the last of a list
                    guard let value = routingString(base, count, &i) else { return false }
                    switch name {
                    case 1: f.type = value
                    case 2: f.event = value
                    case 3: f.id = value
                    default: f.method = value
                    }
                case 5 where c == UInt8(ascii: "-") || isDigit(c):
                    guard sequenceNumber(base, count, &i, into: &f.seq) else { return false }
                case 6 where c == UInt8(ascii: "t") || c == UInt8(ascii: "f"):
                    guard skipValue(base, count, &i, depth: 1, maxDepth: maxDepth, secret: &secret) else { return false }
                    f.ok = c == UInt8(ascii: "t")
                case 7 where c == UInt8(ascii: "{"):
                    guard scanPayload(base, count, &i, maxDepth: maxDepth, into: &f, secret: &secret) else { return false }
                default:
                    guard skipValue(base, count, &i, depth: 1, maxDepth: maxDepth, secret: &secret) else { return false }
                }
                if name == 7 { f.payloadRange = valueStart..<i }
                guard i < count else { return false }
                if base[i] == UInt8(ascii: ",") { i &+= 1; continue }
                guard base[i] == UInt8(ascii: "}") else { return false }
                i &+= 1
                break
            }
        }
        guard i == count else { return false }
        f.hasSecretKey = secret
        return true
    }

    /// The payload object at `i` (its `{`): `runId`, `sessionKey` and `state` when strings, `seq` when a
    /// number, each the first such member (as `JSONReader.scanPayload` reads them).
    @inline(__always)
    private static func scanPayload(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int, maxDepth: Int,
                                    into f: inout ScannedFrame, secret: inout Bool) -> Bool {
        i &+= 1
        guard i < count else { return false }
        if base[i] == UInt8(ascii: "}") { i &+= 1; return true }
        while true {
            guard let (start, length) = key(base, count, &i), i < count else { return false }
            let name = routingName(base + start, length, count &- start)
            let c = base[i]
            switch name {
            case 8 where f.runId == nil && c == UInt8(ascii: "\""):
                guard let value = routingString(base, count, &i) else { return false }
                f.runId = value
            case 9 where f.sessionKey == nil && c == UInt8(ascii: "\""):
                guard let value = routingString(base, count, &i) else { return false }
                f.sessionKey = value
            case 10 where f.state == nil && c == UInt8(ascii: "\""):
                guard let value = routingString(base, count, &i) else { return false }
                f.state = value
            case 5 where f.runSeq == nil && (c == UInt8(ascii: "-") || isDigit(c)):
                guard sequenceNumber(base, count, &i, into: &f.runSeq) else { return false }
            default:
                if name == 0 && !secret { secret = isSecretKey(base + start, length, count &- start) }
                guard skipValue(base, count, &i, depth: 2, maxDepth: maxDepth, secret: &secret) else { return false }
            }
            guard i < count else { return false }
            if base[i] == UInt8(ascii: ",") { i &+= 1; continue }
            guard base[i] == UInt8(ascii: "}") else { return false }
            i &+= 1
            return true
        }
    }

    /// `"name":` at `i` (ASCII without escapes): where the name starts and its length; `i` ends after
    /// the colon.
    @inline(__always)
    private static func key(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> (Int, Int)? {
        guard i < count, base[i] == UInt8(ascii: "\"") else { return nil }
        let start = i &+ 1
        guard let end = keyEnd(base, count, from: start) else { return nil }
        i = end &+ 1
        guard i < count, base[i] == UInt8(ascii: ":") else { return nil }
        i &+= 1
        return (start, end &- start)
    }

    /// A routing string at `i` (its opening quote): ASCII without escapes, else nil.
    @inline(__always)
    private static func routingString(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> ScannedString? {
        let start = i &+ 1
        guard let end = keyEnd(base, count, from: start) else { return nil }
        i = end &+ 1
        return ScannedString(start: start, end: end, escaped: false, word: routingWord(base + start, end &- start, count &- start))
    }

    /// A `seq` value at `i` (a digit or "-"): moves `i` past the number `numberEnd` accepts there and
    /// sets `value` to what `JSONReader.int64` reads from it. The usual seq, up to 18 digits without
    /// a sign, a leading zero, a fraction or an exponent, is read in the one pass that finds its end.
    @inline(__always)
    private static func sequenceNumber(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int,
                                       into value: inout Int64?) -> Bool {
        let start = i
        if base[start] != UInt8(ascii: "0") {
            var j = start
            var result: Int64 = 0
            while j < count && j &- start < 18 {
                let digit = base[j] &- UInt8(ascii: "0")
                if digit >= 10 { break }
                result = result &* 10 &+ Int64(digit)
                j &+= 1
            }
            // Ended by anything but a 19th digit, a fraction or an exponent: numberEnd ends here too.
            if j > start && (j == count || (!isDigit(base[j]) && base[j] != UInt8(ascii: ".")
                                            && base[j] | 0x20 != UInt8(ascii: "e"))) {
                value = result
                i = j
                return true
            }
        }
        guard let end = numberEnd(base, count, from: start) else { return false }
        value = JSONReader.int64(UnsafeBufferPointer(start: base + start, count: end &- start))
        i = end
        return true
    }

    /// Validates the value at `i` (`i < count`), inside `depth` open containers, moving `i` past it;
    /// containers are walked in one loop with a bit per open level (object or array), noting secret names.
    @inline(__always)
    private static func skipValue(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int, depth: Int,
                                  maxDepth: Int, secret: inout Bool) -> Bool {
        var j = i
        defer { i = j }
        var objects: UInt64 = 0  // bit k: the container opened k levels below the top of this walk is an object
        var level = 0            // containers open in this walk
        var inObject = false
        while true {
            // A value at j.
            guard j < count else { return false }
            let c = base[j]
            switch c {
            case UInt8(ascii: "\""):
                // A short plain string ends in its first eight bytes: found here without the call.
                let from = j &+ 1
                if from &+ 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + from).loadUnaligned(as: UInt64.self))
                    let special = JSONReader.specialStringBytes(word, quotes: 0x2222_2222_2222_2222)
                    let first = from &+ (special.trailingZeroBitCount &>> 3)
                    if special != 0 && base[first] == UInt8(ascii: "\"") {
                        j = first &+ 1
                        break
                    }
                }
                guard let end = stringEnd(base, count, from: from) else { return false }
                j = end &+ 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let end = numberEnd(base, count, from: j) else { return false }
                j = end
            case UInt8(ascii: "t"):
                guard j &+ 4 <= count, UnsafeRawPointer(base + j).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6575_7274) else { return false }
                j &+= 4
            case UInt8(ascii: "f"):
                guard j &+ 5 <= count, UnsafeRawPointer(base + (j &+ 1)).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6573_6c61) else { return false }
                j &+= 5
            case UInt8(ascii: "n"):
                guard j &+ 4 <= count, UnsafeRawPointer(base + j).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6c6c_756e) else { return false }
                j &+= 4
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth &+ level < maxDepth, depth &+ level < 63, j &+ 1 < count else { return false }
                inObject = c == UInt8(ascii: "{")
                objects = objects &<< 1 | (inObject ? 1 : 0)
                level &+= 1
                j &+= 1
                if base[j] != (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if inObject {
                        guard let (start, length) = key(base, count, &j) else { return false }
                        if !secret { secret = isSecretKey(base + start, length, count &- start) }
                    }
                    continue
                }
                // Empty: j is at its closing bracket, closed below like any other.
            default:
                return false
            }
            // After a value: a comma and the next member or element, or the ends of containers.
            while true {
                if level == 0 { return true }
                guard j < count else { return false }
                let next = base[j]
                if next == UInt8(ascii: ",") {
                    j &+= 1
                    if inObject {
                        guard let (start, length) = key(base, count, &j) else { return false }
                        if !secret { secret = isSecretKey(base + start, length, count &- start) }
                    }
                    break
                }
                guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                j &+= 1
                level &-= 1
                objects &>>= 1
                inObject = objects & 1 != 0
            }
        }
    }

    /// The routing name `length` bytes at `p` spell (`available` bytes are readable there): 1 type,
    /// 2 event, 3 id, 4 method, 5 seq, 6 ok, 7 payload, 8 runId, 9 sessionKey, 10 state; 0 none.
    @inline(__always)
    private static func routingName(_ p: UnsafePointer<UInt8>, _ length: Int, _ available: Int) -> Int {
        guard length >= 2 && length <= 10 && available >= 8 else {
            return length >= 2 && length <= 10 ? slowRoutingName(p, length) : 0
        }
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        let masked = length >= 8 ? word : word & ((1 &<< UInt64(length &* 8)) &- 1)
        switch length {
        case 2: return masked == 0x6469 ? 3 : masked == 0x6b6f ? 6 : 0
        case 3: return masked == 0x71_6573 ? 5 : 0
        case 4: return masked == 0x6570_7974 ? 1 : 0
        case 5: return masked == 0x74_6e65_7665 ? 2 : masked == 0x64_496e_7572 ? 8 : masked == 0x65_7461_7473 ? 10 : 0
        case 6: return masked == 0x646f_6874_656d ? 4 : 0
        case 7: return masked == 0x64_616f_6c79_6170 ? 7 : 0
        case 10:
            return masked == 0x4b6e_6f69_7373_6573 && p[8] == UInt8(ascii: "e") && p[9] == UInt8(ascii: "y") ? 9 : 0
        default: return 0
        }
    }

    /// `SecretKeyName.matches` for the member name of `length` bytes at `p` (`available` bytes readable
    /// there), without the call for names shorter than "token", the shortest secret name, or for the
    /// common names of the gateway's events.
    @inline(__always)
    private static func isSecretKey(_ p: UnsafePointer<UInt8>, _ length: Int, _ available: Int) -> Bool {
        guard length >= 5 else { return false }
        if available >= 8 && isCommonPlainName(p, length) { return false }
        return SecretKeyName.matches(UnsafeBufferPointer(start: p, count: length))
    }

    /// Member names every chat and agent event carries (`message`, `content`, `timestamp`, …), none of
    /// them a secret's (a test holds `SecretKeyName.matches` to that): recognised on one 8-byte compare,
    /// so they skip its byte loop. Exact, so a name that only begins like one (`messageToken`) is still
    /// checked. At least 8 bytes must be readable at `p`.
    @inline(__always)
    static func isCommonPlainName(_ p: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        switch length {
        case 5:
            let name = word & 0xFF_FFFF_FFFF
            return name == 0x65_6761_7375 || name == 0x65_7361_6870  // usage, phase
        case 6:
            let name = word & 0xFFFF_FFFF_FFFF
            return name == 0x6d61_6572_7473 || name == 0x746c_7573_6572  // stream, result
        case 7:
            let name = word & 0xFF_FFFF_FFFF_FFFF
            return name == 0x65_6761_7373_656d || name == 0x74_6e65_746e_6f63  // message, content
        case 8:
            return word == 0x676e_696b_6e69_6874  // thinking
        case 9:
            return (word == 0x6d61_7473_656d_6974 && p[8] == UInt8(ascii: "p"))  // timestamp
                || (word == 0x7865_5461_746c_6564 && p[8] == UInt8(ascii: "t"))  // deltaText
        case 10:
            return word == 0x7361_6552_706f_7473 && p[8] == UInt8(ascii: "o") && p[9] == UInt8(ascii: "n")  // stopReason
        default:
            return false
        }
    }

    /// Exactly the names `isCommonPlainName` accepts: tests hold the two together and vet each name.
    static let commonPlainNames = ["usage", "phase", "stream", "result", "message", "content", "thinking",
                                   "timestamp", "deltaText", "stopReason"]

    /// `JSONReader.knownWord` on one 8-byte load when that many bytes are readable at `p`.
    @inline(__always)
    private static func routingWord(_ p: UnsafePointer<UInt8>, _ length: Int, _ available: Int) -> RoutingWord {
        guard length >= 3 && length <= 8 else { return .other }
        guard available >= 8 else { return JSONReader.knownWord(UnsafeBufferPointer(start: p, count: length)) }
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        let masked = length == 8 ? word : word & ((1 &<< UInt64(length &* 8)) &- 1)
        switch length {
        case 3: return masked == 0x73_6572 ? .res : masked == 0x71_6572 ? .req : .other
        case 4: return masked == 0x7461_6863 ? .chat : masked == 0x6e69_616d ? .main : masked == 0x6b63_6974 ? .tick : .other
        case 5:
            switch masked {
            case 0x74_6e65_7665: return .event
            case 0x61_746c_6564: return .delta
            case 0x6c_616e_6966: return .final
            case 0x74_6e65_6761: return .agent
            case 0x72_6f72_7265: return .error
            default: return .other
            }
        case 6: return masked == 0x6874_6c61_6568 ? .health : masked == 0x7375_7461_7473 ? .status : .other
        case 7: return masked == 0x64_6574_726f_6261 ? .aborted : .other
        default: return masked == 0x6e77_6f64_7475_6873 ? .shutdown : .other
        }
    }

    private static func slowRoutingName(_ p: UnsafePointer<UInt8>, _ length: Int) -> Int {
        switch JSONReader.routingKey(UnsafeBufferPointer(start: p, count: length)) {
        case .type: return 1
        case .event: return 2
        case .id: return 3
        case .method: return 4
        case .seq: return 5
        case .ok: return 6
        case .payload: return 7
        case .runId: return 8
        case .sessionKey: return 9
        case .state: return 10
        case .other: return 0
        }
    }

    /// The closing quote of a string starting at `from` that holds only ASCII without escapes or
    /// control characters; nil otherwise.
    @inline(__always)
    private static func keyEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from: Int) -> Int? {
        var j = from
        let quotes: UInt64 = 0x2222_2222_2222_2222
        while j &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
            let special = JSONReader.specialStringBytes(word, quotes: quotes)
            if special == 0 { j &+= 8; continue }
            j &+= special.trailingZeroBitCount &>> 3
            return base[j] == UInt8(ascii: "\"") ? j : nil
        }
        while j < count {
            let b = base[j]
            if b == UInt8(ascii: "\"") { return j }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return nil }
            j &+= 1
        }
        return nil
    }

    /// The closing quote of a valid string starting at `from` (simple escapes, `\u` outside the
    /// surrogates, UTF-8 checked); nil for anything else.
    @inline(__always)
    private static func stringEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from: Int) -> Int? {
        var j = from
        let quotes: UInt64 = 0x2222_2222_2222_2222
        while true {
            while j &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                let special = JSONReader.specialStringBytes(word, quotes: quotes)
                if special == 0 { j &+= 8; continue }
                j &+= special.trailingZeroBitCount &>> 3
                break
            }
            guard j < count else { return nil }
            let b = base[j]
            if b == UInt8(ascii: "\"") { return j }
            if b == UInt8(ascii: "\\") {
                guard let next = escapeEnd(base, count, at: j) else { return nil }
                j = next
            } else if b >= 0x80 {
                guard let next = utf8End(base, count, at: j) else { return nil }
                j = next
            } else if b < 0x20 {
                return nil
            } else {
                j &+= 1
            }
        }
    }

    private static func escapeEnd(_ base: UnsafePointer<UInt8>, _ count: Int, at j: Int) -> Int? {
        guard j &+ 1 < count else { return nil }
        switch base[j &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return j &+ 2
        case UInt8(ascii: "u"):
            guard j &+ 6 <= count else { return nil }
            var scalar: UInt32 = 0
            for k in (j &+ 2)..<(j &+ 6) {
                guard let digit = hexValue(base[k]) else { return nil }
                scalar = scalar << 4 | UInt32(digit)
            }
            return scalar >= 0xD800 && scalar <= 0xDFFF ? nil : j &+ 6  // surrogates: the slow path pairs them
        default:
            return nil
        }
    }

    /// The end of the valid UTF-8 sequence whose lead byte is at `j` (RFC 3629), or nil.
    private static func utf8End(_ base: UnsafePointer<UInt8>, _ count: Int, at j: Int) -> Int? {
        guard let sequence = UTF8Sequence.starting(with: base[j]) else { return nil }
        let length = sequence.length
        guard j + length <= count else { return nil }
        let second = base[j &+ 1]
        guard second >= sequence.low && second <= sequence.high else { return nil }
        for k in 2..<length where base[j + k] & 0xC0 != 0x80 { return nil }
        return j + length
    }

    /// The end of the strict JSON number at `from`, or nil.
    @inline(__always)
    private static func numberEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from: Int) -> Int? {
        var j = from
        if base[j] == UInt8(ascii: "-") { j &+= 1 }
        guard j < count, isDigit(base[j]) else { return nil }
        if base[j] == UInt8(ascii: "0") {
            j &+= 1
            if j < count && isDigit(base[j]) { return nil }
        } else {
            // Eight digits per step (a timestamp has 13): a lane is a digit when its byte XOR "0" is
            // below 10; adding 0x76 to the low seven bits sets the top bit of any lane that is not,
            // without a carry into the next lane.
            while j &+ 8 <= count {
                let x = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)) ^ 0x3030_3030_3030_3030
                let notDigits = (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
                if notDigits == 0 { j &+= 8; continue }
                j &+= notDigits.trailingZeroBitCount &>> 3
                break
            }
            while j < count && isDigit(base[j]) { j &+= 1 }
        }
        if j < count && base[j] == UInt8(ascii: ".") {
            j &+= 1
            guard j < count, isDigit(base[j]) else { return nil }
            while j < count && isDigit(base[j]) { j &+= 1 }
        }
        if j < count && (base[j] == UInt8(ascii: "e") || base[j] == UInt8(ascii: "E")) {
            j &+= 1
            if j < count && (base[j] == UInt8(ascii: "+") || base[j] == UInt8(ascii: "-")) { j &+= 1 }
            guard j < count, isDigit(base[j]) else { return nil }
            while j < count && isDigit(base[j]) { j &+= 1 }
        }
        return j
    }
}
