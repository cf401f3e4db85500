import ClawSystem

/// Where a routing string sits in the scanned bytes: its contents between the quotes, whether they
/// hold escapes (then the String is decoded again when asked for), and the routing word it is.
package struct ScannedString: Sendable, Equatable {
    package var start: Int
    package var end: Int
    package var escaped: Bool
    package var word: RoutingWord

    /// The string's value; `bytes` must be the buffer it was scanned from.
    package func string(in bytes: UnsafeRawBufferPointer) -> String {
        if let text = word.text { return text }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if !escaped { return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self) }
        var reader = JSONReader(base: base, count: bytes.count, maxDepth: 1, json5: false, rejectDuplicateKeys: false)
        reader.i = start - 1
        _ = try? reader.scanString(quote: UInt8(ascii: "\""))
        return String(decoding: reader.scratch, as: UTF8.self)
    }

    /// True when the string's value is exactly `utf8` (compared on the bytes when it has no escapes).
    package func equals(_ utf8: UnsafeBufferPointer<UInt8>, in bytes: UnsafeRawBufferPointer) -> Bool {
        if escaped {
            var value = string(in: bytes)
            return value.withUTF8 { $0.count == utf8.count && (utf8.count == 0 || Memory.equal($0.baseAddress!, utf8.baseAddress!, count: utf8.count)) }
        }
        return end - start == utf8.count
            && (utf8.count == 0 || Memory.equal(bytes.baseAddress! + start, utf8.baseAddress!, count: utf8.count))
    }
}

/// What the scanner read, without a String: plain data, so a frame copies and frees it for nothing.
package struct ScannedFrame: Sendable, Equatable {
    package var type: ScannedString?
    package var event: ScannedString?
    package var id: ScannedString?
    package var method: ScannedString?
    package var seq: Int64?
    package var ok: Bool?
    package var payloadRange: Range<Int>?
    package var runId: ScannedString?
    package var sessionKey: ScannedString?
    package var state: ScannedString?
    package var runSeq: Int64?
    /// See `JSONFrameHeader.hasSecretKey`.
    package var hasSecretKey = false
    /// The frame holds a raw line break (only possible as whitespace between tokens in valid JSON).
    package var hasLineBreak = false

    package init() {}
}
