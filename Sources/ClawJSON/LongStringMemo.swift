@_spi(Engine) import ClawSystem

/// A string value of one frame whose first bytes are, byte for byte, a whole string of an earlier frame:
/// the string opening at `open` (its quote) starts with `contentEnd - open - 1` bytes that were
/// validated before and decode to `decoded`. Those bytes are a complete string's contents, so they end
/// between two characters, two escapes or a character and an escape (a `\uD83D\uDE00` pair included):
/// what follows can be checked and decoded on its own.
@_spi(Engine) public struct KnownString: Sendable {
    @_spi(Engine) public var open: Int
    @_spi(Engine) public var contentEnd: Int
    @_spi(Engine) public var decoded: String
}

/// The long strings of a connection's latest frames, so that the next frame's scan and parse check and
/// decode only what was added after them. A gateway's `chat` delta (and the `agent` event beside it)
/// carries the whole reply so far: without this, every update cost a pass of our own code over the
/// whole text, twice per frame (scan, then parse), which an unoptimised (debug) build of a library user
/// cannot keep up with on a long reply. With it, the unchanged prefix costs a memchr and a memcmp.
///
/// Every use is checked: a remembered string is used only where its bytes are found again, at the
/// start of a string the scanner or parser reached by itself. Holds at most two strings (with the
/// frames they came from). Thread-safe.
@_spi(Engine) public final class LongStringMemo: @unchecked Sendable {
    /// Strings shorter than this (bytes as sent) are neither remembered nor looked for: frames under it
    /// cost nothing more.
    @_spi(Engine) public static var threshold: Int { 16 * 1024 }
    /// How many leading bytes (the opening quote included) locate a remembered string in a new frame.
    static let probeLength = 64

    private struct Entry {
        var bytes: [UInt8]
        /// The contents' range in `bytes` (between the quotes).
        var start: Int
        var end: Int
        var decoded: String
    }

    private let lock = TransportLock()
    private var entries: [Entry] = []  // newest last

    @_spi(Engine) public init() {}

    /// A remembered string whose bytes open a string in `message`, newest first; nil when none does.
    @_spi(Engine) public func locate(in message: [UInt8]) -> KnownString? {
        guard message.count >= Self.threshold else { return nil }
        let entries = lock.withLock { self.entries }
        for entry in entries.reversed() {
            let length = entry.end - entry.start
            guard length + 2 <= message.count else { continue }
            let found: KnownString? = message.withUnsafeBytes { haystack in
                entry.bytes.withUnsafeBytes { old in
                    let probe = UnsafeRawBufferPointer(rebasing: old[(entry.start - 1)..<(entry.start + min(length, Self.probeLength - 1))])
                    guard let open = Memory.firstOffset(of: probe, in: haystack), open + 1 + length < message.count,
                          Memory.equal(haystack.baseAddress! + open + 1, old.baseAddress! + entry.start, count: length)
                    else { return nil }
                    return KnownString(open: open, contentEnd: open + 1 + length, decoded: entry.decoded)
                }
            }
            if let found { return found }
        }
        return nil
    }

    /// Remembers the string whose contents are `start..<end` in `bytes`, decoded `decoded`, dropping the oldest
    /// of three.
    @_spi(Engine) public func remember(_ bytes: [UInt8], start: Int, end: Int, decoded: String) {
        guard end - start >= Self.threshold else { return }
        lock.withLock {
            entries.append(Entry(bytes: bytes, start: start, end: end, decoded: decoded))
            if entries.count > 2 { entries.removeFirst() }
        }
    }
}

extension JSONValue {
    /// `parse`, with the string opening at `known.open` checked and decoded from `known.contentEnd` on
    /// (`known`'s bytes were checked before). Also returns the longest string value of at least
    /// `LongStringMemo.threshold` bytes as sent: where its contents are, and its value.
    @_spi(Engine) public static func parse(
        _ bytes: [UInt8], known: KnownString?
    ) throws(JSONError) -> (value: JSONValue, longest: (start: Int, end: Int, value: String)?) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> (JSONValue, (start: Int, end: Int, value: String)?) in
                guard let base = buffer.baseAddress, buffer.count > 0 else { throw JSONError("empty input", offset: 0) }
                var reader = JSONReader(base: base.assumingMemoryBound(to: UInt8.self), count: buffer.count,
                                        maxDepth: 256, json5: false, rejectDuplicateKeys: false)
                reader.memoizing = true
                if let known, known.contentEnd < buffer.count { reader.known = known }
                let value = try reader.parseDocument()
                return (value, reader.longest)
            }
        }
        return try result.get()
    }
}
