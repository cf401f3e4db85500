
/// A JSON5 reader for OpenClaw's `openclaw.json`.
///
/// Accepts comments, trailing commas, identifier keys, single-quoted strings, hex numbers, leading `+`,
/// leading or trailing decimal points, line continuations and the extra escapes; produces the same `JSONValue`
/// as strict JSON (numbers normalised to valid JSON text: `0x1F` → `31`, `.5` → `0.5`, `5.` → `5`).
/// `Infinity` and `NaN` are rejected: no config value needs them and JSON cannot carry them.
@_spi(Engine) public enum JSON5 {
    @_spi(Engine) public static func parse(
        _ bytes: [UInt8], maxDepth: Int = 256, rejectDuplicateKeys: Bool = false
    ) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> JSONValue in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    throw JSONError("empty input", offset: 0)
                }
                var reader = JSONReader(
                    base: base, count: buffer.count, maxDepth: maxDepth, json5: true,
                    rejectDuplicateKeys: rejectDuplicateKeys)
                return try reader.parseDocument()
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            // The position goes beside the message, not into it: a caller words it once, its own way.
            let (line, column) = lineAndColumn(of: error.offset, in: bytes)
            throw JSONError(error.message, offset: error.offset, line: line, column: column)
        }
    }

    @_spi(Engine) public static func parse(_ text: String, maxDepth: Int = 256, rejectDuplicateKeys: Bool = false)
        throws(JSONError) -> JSONValue
    {
        try parse(Array(text.utf8), maxDepth: maxDepth, rejectDuplicateKeys: rejectDuplicateKeys)
    }

    /// 1-based line and column (in characters) of a byte offset, for people reading the error.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            let b = bytes[k]
            if b == 0x0A || (b == 0x0D && (k + 1 >= bytes.count || bytes[k + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 && b != 0x0D {
                column += 1
            }
            k += 1
        }
        return (line, column)
    }
}

extension JSONReader {
    /// Length of the JSON5 whitespace character at `j` (ASCII space, tab, newlines, VT, FF, NBSP, BOM,
    /// line/paragraph separators and the other Unicode space separators), or 0.
    func json5SpaceLength(at j: Int) -> Int {
        let b = base[j]
        switch b {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D: return 1
        case 0xC2: return j + 1 < count && base[j + 1] == 0xA0 ? 2 : 0
        case 0xE1, 0xE2, 0xE3, 0xEF:
            guard j + 2 < count else { return 0 }
            let b1 = base[j + 1], b2 = base[j + 2]
            switch (b, b1) {
            case (0xE1, 0x9A): return b2 == 0x80 ? 3 : 0  // U+1680
            case (0xE2, 0x80): return (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF ? 3 : 0
            case (0xE2, 0x81): return b2 == 0x9F ? 3 : 0  // U+205F
            case (0xE3, 0x80): return b2 == 0x80 ? 3 : 0  // U+3000
            case (0xEF, 0xBB): return b2 == 0xBF ? 3 : 0  // U+FEFF
            default: return 0
            }
        default: return 0
        }
    }

    /// True at a line terminator that ends a `//` comment or continues a string (LF, CR, U+2028, U+2029).
    private func lineTerminatorLength(at j: Int) -> Int {
        let b = base[j]
        if b == 0x0A { return 1 }
        if b == 0x0D { return j + 1 < count && base[j + 1] == 0x0A ? 2 : 1 }
        if b == 0xE2 && j + 2 < count && base[j + 1] == 0x80 && (base[j + 2] == 0xA8 || base[j + 2] == 0xA9) {
            return 3
        }
        return 0
    }

    mutating func skipJSON5Space() throws(JSONError) {
        while i < count {
            let b = base[i]
            if b == UInt8(ascii: "/") && i + 1 < count {
                if base[i + 1] == UInt8(ascii: "/") {
                    i += 2
                    while i < count && lineTerminatorLength(at: i) == 0 {
                        i = base[i] >= 0x80 ? try validateUTF8(at: i) : i + 1
                    }
                    continue
                }
                if base[i + 1] == UInt8(ascii: "*") {
                    let open = i
                    i += 2
                    while true {
                        guard i + 1 < count else { throw JSONError("unterminated block comment", offset: open) }
                        if base[i] == UInt8(ascii: "*") && base[i + 1] == UInt8(ascii: "/") { break }
                        i = base[i] >= 0x80 ? try validateUTF8(at: i) : i + 1
                    }
                    i += 2
                    continue
                }
                return
            }
            let length = json5SpaceLength(at: i)
            if length == 0 { return }
            i += length
        }
    }

    /// An unquoted identifier key or a single-quoted key (a double-quoted one is read by the caller).
    mutating func readJSON5Key() throws(JSONError) -> String {
        let c = base[i]
        if c == UInt8(ascii: "'") { return try readString(quote: c) }
        let start = i
        var j = i
        while j < count {
            let b = base[j]
            if isIdentifierByte(b) && (j > start || !isDigit(b)) {
                j += 1
            } else if b >= 0x80 && json5SpaceLength(at: j) == 0 {
                j = try validateUTF8(at: j)
            } else {
                break
            }
        }
        if j == start {
            if c == UInt8(ascii: "\\") { throw JSONError("escapes in unquoted keys are not supported", offset: i) }
            throw JSONError("expected a key, found \(describe(c))", offset: i)
        }
        i = j
        return String(decoding: UnsafeBufferPointer(start: base + start, count: j - start), as: UTF8.self)
    }

    private func isIdentifierByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            return true
        default: return false
        }
    }

    /// The JSON5-only escapes at `j` (a backslash): `\'`, `\v`, `\0`, `\xHH`, line continuations and
    /// identity escapes of other non-digit characters; appends to `scratch`.
    mutating func readJSON5Escape(at j: Int) throws(JSONError) -> Int {
        let e = base[j + 1]
        switch e {
        case UInt8(ascii: "v"): scratch.append(0x0B)
        case UInt8(ascii: "0"):
            if j + 2 < count && isDigit(base[j + 2]) {
                throw JSONError("octal escapes are not allowed", offset: j)
            }
            scratch.append(0)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            throw JSONError("octal escapes are not allowed", offset: j)
        case UInt8(ascii: "x"):
            appendUTF8(try readHex(at: j + 2, digits: 2))
            return j + 4
        default:
            let terminator = lineTerminatorLength(at: j + 1)
            if terminator > 0 { return j + 1 + terminator }  // line continuation: nothing
            if e >= 0x80 {
                let next = try validateUTF8(at: j + 1)
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + j + 1, count: next - j - 1))
                return next
            }
            if e < 0x20 { throw JSONError("invalid escape \(describe(e))", offset: j) }
            scratch.append(e)  // identity escape: \' \a \q …
        }
        return j + 2
    }

    /// A JSON5 number, normalised to valid JSON number text.
    mutating func readJSON5Number() throws(JSONError) -> JSONValue {
        let start = i
        var j = i
        var negative = false
        if base[j] == UInt8(ascii: "+") || base[j] == UInt8(ascii: "-") {
            negative = base[j] == UInt8(ascii: "-")
            j += 1
        }
        guard j < count else { throw JSONError("expected a digit in number", offset: j) }
        if base[j] == UInt8(ascii: "I") || base[j] == UInt8(ascii: "N") {
            throw JSONError("Infinity and NaN are not allowed (config values must be finite numbers)", offset: start)
        }
        var text: [UInt8] = negative ? [UInt8(ascii: "-")] : []

        if base[j] == UInt8(ascii: "0") && j + 1 < count && (base[j + 1] | 0x20) == UInt8(ascii: "x") {
            j += 2
            let digitsStart = j
            while j < count && hexValue(base[j]) != nil { j += 1 }
            guard j > digitsStart else { throw JSONError("expected a hex digit", offset: j) }
            guard j - digitsStart <= 256 else { throw JSONError("hex number too long", offset: start) }
            text += hexToDecimal(UnsafeBufferPointer(start: base + digitsStart, count: j - digitsStart))
            i = j
            return .number(String(decoding: text, as: UTF8.self))
        }

        let intStart = j
        while j < count && isDigit(base[j]) { j += 1 }
        let intEnd = j
        if intEnd - intStart > 1 && base[intStart] == UInt8(ascii: "0") {
            throw JSONError("leading zero in number", offset: intStart + 1)
        }
        var fracStart = j, fracEnd = j
        if j < count && base[j] == UInt8(ascii: ".") {
            j += 1
            fracStart = j
            while j < count && isDigit(base[j]) { j += 1 }
            fracEnd = j
        }
        if intEnd == intStart && fracEnd == fracStart { throw JSONError("expected a digit in number", offset: j) }
        if intEnd == intStart {
            text.append(UInt8(ascii: "0"))
        } else {
            text.append(contentsOf: UnsafeBufferPointer(start: base + intStart, count: intEnd - intStart))
        }
        if fracEnd > fracStart {
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: UnsafeBufferPointer(start: base + fracStart, count: fracEnd - fracStart))
        }
        if j < count && (base[j] == UInt8(ascii: "e") || base[j] == UInt8(ascii: "E")) {
            let expStart = j
            j += 1
            if j < count && (base[j] == UInt8(ascii: "+") || base[j] == UInt8(ascii: "-")) { j += 1 }
            guard j < count, isDigit(base[j]) else { throw JSONError("expected a digit in the exponent", offset: j) }
            while j < count && isDigit(base[j]) { j += 1 }
            text.append(contentsOf: UnsafeBufferPointer(start: base + expStart, count: j - expStart))
        }
        i = j
        return .number(String(decoding: text, as: UTF8.self))
    }
}

/// Exact decimal text of a run of hex digits (any length the caller allows), without leading zeros.
func hexToDecimal(_ hexDigits: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    // Little-endian limbs of 10^9 so long literals stay exact.
    var limbs: [UInt32] = [0]
    for h in hexDigits {
        var carry = UInt64(hexValue(h) ?? 0)
        for k in limbs.indices {
            let v = UInt64(limbs[k]) * 16 + carry
            limbs[k] = UInt32(v % 1_000_000_000)
            carry = v / 1_000_000_000
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
    }
    var out = Array(String(limbs[limbs.count - 1]).utf8)
    for limb in limbs.dropLast().reversed() {
        let part = Array(String(limb).utf8)
        out += [UInt8](repeating: UInt8(ascii: "0"), count: 9 - part.count) + part
    }
    return out
}
