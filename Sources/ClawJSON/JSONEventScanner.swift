@_spi(Engine) import ClawSystem

/// Validates a frame as strict JSON and picks out its top-level routing fields, so `watch` can route,
/// filter and check sequence numbers, then print the frame bytes as received without a full parse.
@_spi(Engine) public enum JSONEventScanner {
    /// Scans one JSON object; the whole input is validated exactly as `JSONValue.parse` would.
    /// The first of duplicate top-level members wins, as in `JSONObject`'s subscript.
    @_spi(Engine) public static func scan(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> JSONFrameHeader {
        JSONFrameHeader(try fields(bytes, maxDepth: maxDepth), bytes: bytes)
    }

    /// The same scan, leaving the strings in the input (see `ScannedFrame`).
    @_spi(Engine) public static func fields(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> ScannedFrame {
        var fields = ScannedFrame()
        try scan(bytes, into: &fields, maxDepth: maxDepth)
        return fields
    }

    /// The same, into `fields` (which must be fresh): a frame is ~200 bytes, not copied on the way.
    /// `shapes`: the layouts of the connection's latest frames (`FrameShapes`), to check a frame laid out
    /// like one of them segment by segment.
    @_spi(Engine) public static func scan(_ bytes: UnsafeRawBufferPointer, into fields: inout ScannedFrame, maxDepth: Int = 256,
                                          shapes: FrameShapes? = nil) throws(JSONError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw JSONError("empty input", offset: 0) }
        let start = base.assumingMemoryBound(to: UInt8.self)
        if fastScan(start, count: bytes.count, maxDepth: maxDepth, into: &fields, shapes: shapes) { return }
        var reader = JSONReader(base: start, count: bytes.count, maxDepth: maxDepth, json5: false, rejectDuplicateKeys: false)
        fields = try reader.scanFrame()
    }

    /// The same for a frame holding a string whose first bytes were checked before (`LongStringMemo`):
    /// what it accepts and the fields it reads are exactly `scan`'s; only the known bytes are not read again.
    @_spi(Engine) public static func scan(_ bytes: UnsafeRawBufferPointer, into fields: inout ScannedFrame, known: KnownString,
                                          maxDepth: Int = 256, shapes: FrameShapes? = nil) throws(JSONError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw JSONError("empty input", offset: 0) }
        let start = base.assumingMemoryBound(to: UInt8.self)
        guard known.open >= 0, known.contentEnd < bytes.count else { return try scan(bytes, into: &fields, maxDepth: maxDepth, shapes: shapes) }
        if fastScan(start, count: bytes.count, maxDepth: maxDepth, into: &fields, shapes: shapes,
                    knownFrom: known.open + 1, knownTo: known.contentEnd) { return }
        fields = ScannedFrame()
        var reader = JSONReader(base: start, count: bytes.count, maxDepth: maxDepth, json5: false, rejectDuplicateKeys: false)
        reader.known = KnownString(open: known.open, contentEnd: known.contentEnd, decoded: "")
        fields = try reader.scanFrame()
    }

    /// The fast path: through the connection's layouts when given, else the fast scanner alone.
    @inline(__always)
    private static func fastScan(_ start: UnsafePointer<UInt8>, count: Int, maxDepth: Int, into fields: inout ScannedFrame,
                                 shapes: FrameShapes?, knownFrom: Int = -1, knownTo: Int = -1) -> Bool {
        if let shapes { return shapes.scan(start, count: count, maxDepth: maxDepth, into: &fields, knownFrom: knownFrom, knownTo: knownTo) }
        return FastFrameScanner.scan(start, count: count, maxDepth: maxDepth, into: &fields, knownFrom: knownFrom, knownTo: knownTo)
    }

    @_spi(Engine) public static func scan(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONError) -> JSONFrameHeader {
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
            case UInt8(ascii: "\""): _ = try scanString(quote: c, contentFrom: i == known.open ? known.contentEnd : i + 1)
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
