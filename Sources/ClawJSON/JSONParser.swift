@_spi(Engine) import ClawSystem
extension JSONValue {
    /// Parses one JSON text (RFC 8259) from UTF-8 bytes.
    ///
    /// Strict: one value with optional surrounding whitespace, valid UTF-8 only, numbers kept as written,
    /// duplicate object members kept in order unless `rejectDuplicateKeys` is set. Nesting deeper than
    /// `maxDepth` containers is an error; the parser is iterative, so depth never costs stack. (Comparing,
    /// printing and freeing a tree do recurse: keep `maxDepth` in the hundreds for untrusted input.)
    @_spi(Engine) public static func parse(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256, rejectDuplicateKeys: Bool = false
    ) throws(JSONError) -> JSONValue {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw JSONError("empty input", offset: 0) }
        var reader = JSONReader(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count,
            maxDepth: maxDepth, json5: false, rejectDuplicateKeys: rejectDuplicateKeys)
        return try reader.parseDocument()
    }

    @_spi(Engine) public static func parse(
        _ bytes: [UInt8], maxDepth: Int = 256, rejectDuplicateKeys: Bool = false
    ) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in
                try parse(buffer, maxDepth: maxDepth, rejectDuplicateKeys: rejectDuplicateKeys)
            }
        }
        return try result.get()
    }

    @_spi(Engine) public static func parse(
        _ text: String, maxDepth: Int = 256, rejectDuplicateKeys: Bool = false
    ) throws(JSONError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSONValue in
                try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth, rejectDuplicateKeys: rejectDuplicateKeys)
            }
        }
        return try result.get()
    }
}

/// The iterative reader behind both `JSONValue.parse` and `JSON5.parse`: an explicit container stack
/// (heap, not call stack) so hostile nesting fails cleanly, and strings sliced straight from the input.
struct JSONReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    let json5: Bool
    let rejectDuplicateKeys: Bool
    var i = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []
    /// The frame scanner saw a member name `Redaction.isSecretKey` accepts.
    var sawSecretKey = false
    /// A raw line feed or carriage return was skipped as whitespace (nowhere else can valid JSON hold one).
    var sawLineBreak = false
    /// Set by `JSONValue.parse(_:known:)`: string values go through `readMemoString`, which uses `known`
    /// and notes the `longest`.
    var memoizing = false
    /// A string whose first bytes were checked before (`LongStringMemo`); its `open` is -1 when none.
    var known = KnownString(open: -1, contentEnd: -1, decoded: "")
    /// The longest string value of at least `LongStringMemo.threshold` bytes read while `memoizing`.
    var longest: (start: Int, end: Int, value: String)? = nil

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, json5: Bool, rejectDuplicateKeys: Bool) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
        self.json5 = json5
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    /// One open array or object while its contents are being read.
    private struct Container {
        var isObject: Bool
        var values: [JSONValue] = []
        var members: [JSONObject.Member] = []
        /// The key of the member whose value is being read.
        var key = ""
        /// Keys seen so far, only when duplicates are rejected.
        var seen: Set<String> = []
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        var stack: [Container] = []
        try skipSpace()
        if i >= count { throw JSONError(json5 ? "no value, only whitespace and comments" : "no value, only whitespace", offset: i) }

        readValue: while true {
            var value: JSONValue
            try skipSpace()
            guard i < count else { throw JSONError("unexpected end of input, expected a value", offset: i) }
            let c = base[i]
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                if stack.count >= maxDepth {
                    throw JSONError("nesting deeper than \(maxDepth) levels", offset: i)
                }
                let isObject = c == UInt8(ascii: "{")
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                i += 1
                try skipSpace()
                if i < count && base[i] == close {
                    i += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    var container = Container(isObject: isObject)
                    if isObject { try readKey(into: &container) }
                    stack.append(container)
                    continue readValue
                }
            } else {
                value = try readScalar()
            }

            // Hand the finished value to its container, closing containers as their ends arrive.
            while true {
                guard !stack.isEmpty else {
                    try skipSpace()
                    if i < count { throw JSONError("unexpected \(describe(base[i])) after the value", offset: i) }
                    return value
                }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    stack[top].members.append(JSONObject.Member(stack[top].key, value))
                } else {
                    stack[top].values.append(value)
                }
                try skipSpace()
                guard i < count else {
                    throw JSONError("unexpected end of input inside \(isObject ? "object" : "array")", offset: i)
                }
                let c = base[i]
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if c == UInt8(ascii: ",") {
                    i += 1
                    try skipSpace()
                    if json5 && i < count && base[i] == close {
                        i += 1  // JSON5 trailing comma
                    } else {
                        if isObject { try readKey(into: &stack[top]) }
                        continue readValue
                    }
                } else if c == close {
                    i += 1
                } else {
                    let expected = isObject ? "',' or '}'" : "',' or ']'"
                    throw JSONError("expected \(expected), found \(describe(c))", offset: i)
                }
                let done = stack.removeLast()
                value = isObject ? .object(JSONObject(done.members)) : .array(done.values)
            }
        }
    }

    /// Reads `"key" :` (JSON5: also 'key' or an identifier) and stores the key as the container's current one.
    private mutating func readKey(into container: inout Container) throws(JSONError) {
        guard i < count else { throw JSONError("unexpected end of input inside object", offset: i) }
        let keyOffset = i
        let c = base[i]
        let key: String
        if c == UInt8(ascii: "\"") {
            key = try readString(quote: c)
        } else if json5 {
            key = try readJSON5Key()
        } else {
            throw JSONError("expected a string key, found \(describe(c))", offset: i)
        }
        if rejectDuplicateKeys {
            if container.seen.contains(key) { throw JSONError("duplicate key", offset: keyOffset) }
            container.seen.insert(key)
        }
        container.key = key
        try skipSpace()
        guard i < count, base[i] == UInt8(ascii: ":") else {
            if i >= count { throw JSONError("unexpected end of input inside object", offset: i) }
            throw JSONError("expected ':' after the key, found \(describe(base[i]))", offset: i)
        }
        i += 1
    }

    private mutating func readScalar() throws(JSONError) -> JSONValue {
        let c = base[i]
        switch c {
        case UInt8(ascii: "\""):
            if memoizing { return .string(try readMemoString()) }
            return .string(try readString(quote: c))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return json5 ? try readJSON5Number() : try readNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            if json5 {
                switch c {
                case UInt8(ascii: "'"):
                    return .string(try readString(quote: c))
                case UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "I"), UInt8(ascii: "N"):
                    return try readJSON5Number()
                default: break
                }
            } else if c == UInt8(ascii: "N") || c == UInt8(ascii: "I") {
                throw JSONError("NaN and Infinity are not JSON numbers", offset: i)
            }
            throw JSONError("unexpected \(describe(c)), expected a value", offset: i)
        }
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONError) {
        let length = word.utf8CodeUnitCount
        let bytes = word.utf8Start
        for k in 0..<length where i + k >= count || base[i + k] != bytes[k] {
            throw JSONError("invalid literal, expected '\(word)'", offset: i)
        }
        i += length
    }

    /// Strict RFC 8259 number; the value keeps the exact text.
    private mutating func readNumber() throws(JSONError) -> JSONValue {
        let start = i
        i = try numberEnd(from: i)
        return .number(String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self))
    }

    /// The index just past the strict JSON number starting at `start`.
    func numberEnd(from start: Int) throws(JSONError) -> Int {
        var j = start
        if base[j] == UInt8(ascii: "-") { j += 1 }
        guard j < count, isDigit(base[j]) else { throw JSONError("expected a digit in number", offset: j) }
        if base[j] == UInt8(ascii: "0") {
            j += 1
            if j < count && isDigit(base[j]) { throw JSONError("leading zero in number", offset: j) }
        } else {
            while j < count && isDigit(base[j]) { j += 1 }
        }
        if j < count && base[j] == UInt8(ascii: ".") {
            j += 1
            guard j < count, isDigit(base[j]) else {
                throw JSONError("expected a digit after the decimal point", offset: j)
            }
            while j < count && isDigit(base[j]) { j += 1 }
        }
        if j < count && (base[j] == UInt8(ascii: "e") || base[j] == UInt8(ascii: "E")) {
            j += 1
            if j < count && (base[j] == UInt8(ascii: "+") || base[j] == UInt8(ascii: "-")) { j += 1 }
            guard j < count, isDigit(base[j]) else { throw JSONError("expected a digit in the exponent", offset: j) }
            while j < count && isDigit(base[j]) { j += 1 }
        }
        return j
    }

    /// Reads a quoted string starting at the quote; slices the input directly unless there are escapes.
    mutating func readString(quote: UInt8) throws(JSONError) -> String {
        let (start, end, escaped) = try scanString(quote: quote)
        if escaped { return String(decoding: scratch, as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    /// A string value while `memoizing`: the `known` one is checked and decoded from where its known bytes
    /// end (they end between two characters or escapes, so the rest reads alone); long ones are noted.
    private mutating func readMemoString() throws(JSONError) -> String {
        let value: String
        let start = i + 1
        let end: Int
        if i == known.open {
            let from = known.contentEnd
            let (_, last, escaped) = try scanString(quote: UInt8(ascii: "\""), contentFrom: from)
            end = last
            var whole = known.decoded
            if escaped {
                whole += String(decoding: scratch, as: UTF8.self)
            } else if last > from {
                whole += String(decoding: UnsafeBufferPointer(start: base + from, count: last - from), as: UTF8.self)
            }
            value = whole
        } else {
            let (_, last, escaped) = try scanString(quote: UInt8(ascii: "\""))
            end = last
            value = escaped ? String(decoding: scratch, as: UTF8.self)
                : String(decoding: UnsafeBufferPointer(start: base + start, count: last - start), as: UTF8.self)
        }
        if end - start >= LongStringMemo.threshold, end - start > (longest.map { $0.end - $0.start } ?? 0) {
            longest = (start, end, value)
        }
        return value
    }

    /// Validates the quoted string at `i` and moves past it. Returns the byte range of its raw contents and
    /// whether it had escapes, in which case `scratch` holds the decoded UTF-8.
    @inline(__always)
    mutating func scanString(quote: UInt8) throws(JSONError) -> (start: Int, end: Int, escaped: Bool) {
        try scanString(quote: quote, contentFrom: i + 1)
    }

    /// The same, for a string whose contents before `contentFrom` are known to be valid and end between two
    /// characters or escapes: only the rest is checked, and `escaped` and `scratch` describe the rest alone.
    @inline(__always)
    mutating func scanString(quote: UInt8, contentFrom: Int) throws(JSONError) -> (start: Int, end: Int, escaped: Bool) {
        let open = i
        var j = contentFrom
        var run = j
        var escaped = false
        let quotes = UInt64(quote) &* 0x0101_0101_0101_0101
        while j < count {
            // Eight bytes at a time up to the first quote, backslash, control or non-ASCII byte.
            if j &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                let special = Self.specialStringBytes(word, quotes: quotes)
                if special == 0 {
                    j &+= 8
                    continue
                }
                j &+= special.trailingZeroBitCount &>> 3
            }
            let b = base[j]
            if b == quote {
                i = j + 1
                if escaped { scratch.append(contentsOf: UnsafeBufferPointer(start: base + run, count: j - run)) }
                return (open + 1, j, escaped)
            }
            if b == UInt8(ascii: "\\") {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + run, count: j - run))
                j = try readEscape(at: j)
                run = j
            } else if b < 0x20 {
                if !json5 || b == 0x0A || b == 0x0D {
                    throw JSONError("unescaped control character in string", offset: j)
                }
                j += 1
            } else if b >= 0x80 {
                j = try validateUTF8(at: j)
            } else {
                j += 1
            }
        }
        throw JSONError("unterminated string", offset: open)
    }

    /// A mask with bit 7 of each byte of `word` (little-endian: first byte lowest) set where that byte is
    /// `quote` (splatted in `quotes`), a backslash, below 0x20 or above 0x7F: the bytes `scanString` must look
    /// at one by one. The classic "has zero byte" trick on `word ^ pattern`: bits above the lowest set one
    /// may be spurious, the lowest is exact, and the mask is zero exactly when no byte is special.
    @inline(__always)
    static func specialStringBytes(_ word: UInt64, quotes: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let quote = zeroBytes(word ^ quotes)
        let backslash = zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
        return quote | backslash | control | (word & highs)
    }

    /// Decodes the escape at `j` (a backslash) into `scratch`; returns the index after it.
    private mutating func readEscape(at j: Int) throws(JSONError) -> Int {
        guard j + 1 < count else { throw JSONError("unterminated string", offset: j) }
        let e = base[j + 1]
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex(at: j + 2, digits: 4)
            var next = j + 6
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard next + 1 < count, base[next] == UInt8(ascii: "\\"), base[next + 1] == UInt8(ascii: "u") else {
                    throw JSONError("unpaired high surrogate in \\u escape", offset: j)
                }
                let low = try readHex(at: next + 2, digits: 4)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw JSONError("high surrogate not followed by a low surrogate", offset: next)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                next += 6
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw JSONError("unpaired low surrogate in \\u escape", offset: j)
            }
            appendUTF8(scalar)
            return next
        default:
            if json5 { return try readJSON5Escape(at: j) }
            throw JSONError("invalid escape \(describe(e))", offset: j)
        }
        return j + 2
    }

    /// Reads `digits` hex digits at `start` (part of an escape).
    func readHex(at start: Int, digits: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for k in start..<(start + digits) {
            guard k < count, let digit = hexValue(base[k]) else {
                throw JSONError("expected \(digits) hex digits in escape", offset: min(k, count))
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Checks the multi-byte UTF-8 sequence whose lead byte is at `j` (RFC 3629); returns the index after it.
    func validateUTF8(at j: Int) throws(JSONError) -> Int {
        let lead = base[j]
        guard let sequence = UTF8Sequence.starting(with: lead) else {
            switch lead {
            case 0xC0, 0xC1: throw JSONError("invalid UTF-8 (overlong encoding)", offset: j)
            case 0x80...0xBF: throw JSONError("invalid UTF-8 (unexpected continuation byte)", offset: j)
            default: throw JSONError("invalid UTF-8 (code point above U+10FFFF)", offset: j)
            }
        }
        let length = sequence.length
        guard j + length <= count else { throw JSONError("invalid UTF-8 (truncated sequence)", offset: j) }
        let second = base[j + 1]
        guard second >= sequence.low && second <= sequence.high else {
            if second & 0xC0 != 0x80 { throw JSONError("invalid UTF-8 (truncated sequence)", offset: j) }
            if lead == 0xED { throw JSONError("invalid UTF-8 (encoded surrogate)", offset: j) }
            if lead == 0xF4 { throw JSONError("invalid UTF-8 (code point above U+10FFFF)", offset: j) }
            throw JSONError("invalid UTF-8 (overlong encoding)", offset: j)
        }
        for k in 2..<length where base[j + k] & 0xC0 != 0x80 {
            throw JSONError("invalid UTF-8 (truncated sequence)", offset: j)
        }
        return j + length
    }

    @inline(__always)
    mutating func skipSpace() throws(JSONError) {
        // Most calls find no space at all (compact JSON): answer those without a call.
        if i < count && base[i] > 0x20 && !json5 { return }
        try skipSpaceSlowly()
    }

    private mutating func skipSpaceSlowly() throws(JSONError) {
        if json5 { return try skipJSON5Space() }
        while i < count {
            switch base[i] {
            case 0x20, 0x09: i += 1
            case 0x0A, 0x0D: i += 1; sawLineBreak = true
            default: return
            }
        }
    }

    /// A byte for an error message: printable ASCII quoted, anything else in hex (never a run of input text).
    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "space" }
        let digits = Array("0123456789ABCDEF")
        return "byte 0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
    }
}

@inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

@inline(__always) func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    default: return nil
    }
}
