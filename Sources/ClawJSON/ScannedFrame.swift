@_spi(Engine) import ClawSystem

/// Where a routing string sits in the scanned bytes: its contents between the quotes, whether they
/// hold escapes (then the String is decoded again when asked for), and the routing word it is.
@_spi(Engine) public struct ScannedString: Sendable, Equatable {
    @_spi(Engine) public var start: Int
    @_spi(Engine) public var end: Int
    @_spi(Engine) public var escaped: Bool
    @_spi(Engine) public var word: RoutingWord

    /// The string's value; `bytes` must be the buffer it was scanned from.
    @_spi(Engine) public func string(in bytes: UnsafeRawBufferPointer) -> String {
        if let text = word.text { return text }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if !escaped { return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self) }
        var reader = JSONReader(base: base, count: bytes.count, maxDepth: 1, json5: false, rejectDuplicateKeys: false)
        reader.i = start - 1
        _ = try? reader.scanString(quote: UInt8(ascii: "\""))
        return String(decoding: reader.scratch, as: UTF8.self)
    }

    /// True when the string's value is exactly `utf8` (compared on the bytes when it has no escapes).
    @_spi(Engine) public func equals(_ utf8: UnsafeBufferPointer<UInt8>, in bytes: UnsafeRawBufferPointer) -> Bool {
        if escaped {
            var value = string(in: bytes)
            return value.withUTF8 { $0.count == utf8.count && (utf8.count == 0 || Memory.equal($0.baseAddress!, utf8.baseAddress!, count: utf8.count)) }
        }
        return end - start == utf8.count
            && (utf8.count == 0 || Memory.equal(bytes.baseAddress! + start, utf8.baseAddress!, count: utf8.count))
    }
}

/// What the scanner read, without a String: plain data, so a frame copies and frees it for nothing.
@_spi(Engine) public struct ScannedFrame: Sendable, Equatable {
    @_spi(Engine) public var type: ScannedString?
    @_spi(Engine) public var event: ScannedString?
    @_spi(Engine) public var id: ScannedString?
    @_spi(Engine) public var method: ScannedString?
    @_spi(Engine) public var seq: Int64?
    @_spi(Engine) public var ok: Bool?
    @_spi(Engine) public var payloadRange: Range<Int>?
    @_spi(Engine) public var runId: ScannedString?
    @_spi(Engine) public var sessionKey: ScannedString?
    @_spi(Engine) public var state: ScannedString?
    @_spi(Engine) public var runSeq: Int64?
    /// See `JSONFrameHeader.hasSecretKey`.
    @_spi(Engine) public var hasSecretKey = false
    /// The frame holds a raw line break (only possible as whitespace between tokens in valid JSON).
    @_spi(Engine) public var hasLineBreak = false

    @_spi(Engine) public init() {}
}
