@_spi(Engine) import ClawSystem

/// One member of a JSON object read straight from its bytes, without building the tree: a one-shot
/// command prints a reply as received and needs only one of its values (an ack's `status`), so the
/// reply's thousands of other bytes are skipped, not parsed into values and freed again.
///
/// Only for bytes a parser or the frame scanner has already accepted as JSON: it skips values by
/// their brackets and quotes, and never reads past `object`.
@_spi(Engine) public enum JSONMemberLookup {
    /// The value of the first member named `name` of the object whose braces span `object` in
    /// `bytes`, when that value is a string: exactly `JSONValue.parse(object)[name]?.stringValue`
    /// (names compared as decoded `String`s).
    @_spi(Engine) public static func string(named name: String, inObject object: Range<Int>,
                                            of bytes: UnsafeRawBufferPointer) -> String? {
        let end = object.upperBound
        guard object.lowerBound >= 0, end <= bytes.count, end - object.lowerBound >= 2,
              bytes[object.lowerBound] == UInt8(ascii: "{") else { return nil }
        var i = skipSpace(bytes, object.lowerBound + 1, end)
        while i < end && bytes[i] == UInt8(ascii: "\"") {
            guard let keyClose = closingQuote(bytes, i, end) else { return nil }
            let isName = names(bytes, i..<keyClose + 1, equal: name)
            i = skipSpace(bytes, keyClose + 1, end)
            guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, i + 1, end)
            guard i < end else { return nil }
            if isName {
                // The first member of that name decides, whatever its kind (as the tree's subscript).
                guard bytes[i] == UInt8(ascii: "\""), let close = closingQuote(bytes, i, end) else { return nil }
                return decodedString(bytes, i..<close + 1)
            }
            guard let next = valueEnd(bytes, i, end) else { return nil }
            i = skipSpace(bytes, next, end)
            guard i < end, bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1, end)
        }
        return nil
    }

    /// Whether the JSON string `quoted` (quotes included) decodes to `name`. Plain ASCII equals only
    /// the same bytes; anything else is decoded, as `String` equality is canonical equivalence.
    private static func names(_ bytes: UnsafeRawBufferPointer, _ quoted: Range<Int>, equal name: String) -> Bool {
        let contents = UnsafeRawBufferPointer(rebasing: bytes[quoted.lowerBound + 1..<quoted.upperBound - 1])
        if !contents.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) {
            var name = name
            return name.withUTF8 { $0.elementsEqual(contents) }
        }
        return decodedString(bytes, quoted) == name
    }

    /// The JSON string `quoted` (quotes included), decoded.
    private static func decodedString(_ bytes: UnsafeRawBufferPointer, _ quoted: Range<Int>) -> String? {
        let contents = UnsafeRawBufferPointer(rebasing: bytes[quoted.lowerBound + 1..<quoted.upperBound - 1])
        if !contents.contains(UInt8(ascii: "\\")) { return String(decoding: contents, as: UTF8.self) }
        return (try? JSONValue.parse(Array(UnsafeRawBufferPointer(rebasing: bytes[quoted]))))?.stringValue
    }

    /// The closing quote of the string whose opening quote is at `i`: the first quote after it that
    /// an even run of backslashes precedes (memchr finds each, so long texts are skipped fast).
    private static func closingQuote(_ bytes: UnsafeRawBufferPointer, _ i: Int, _ end: Int) -> Int? {
        let within = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        var from = i + 1
        while let quote = Memory.firstOffset(of: UInt8(ascii: "\""), in: within, from: from) {
            var backslashes = 0
            while quote - 1 - backslashes > i && bytes[quote - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return nil
    }

    /// Where the value starting at `i` ends: the `,` or closing bracket after it at its own level.
    private static func valueEnd(_ bytes: UnsafeRawBufferPointer, _ i: Int, _ end: Int) -> Int? {
        var i = i
        var depth = 0
        while i < end {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                guard let close = closingQuote(bytes, i, end) else { return nil }
                i = close + 1
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return i }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 { return i }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    private static func skipSpace(_ bytes: UnsafeRawBufferPointer, _ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i
    }
}
