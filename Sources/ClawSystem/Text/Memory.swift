import Glibc

/// Byte comparison for the layers above, which do not import the C library themselves.
@_spi(Engine) public enum Memory {
    /// Whether `count` bytes at `a` and `b` are equal (memcmp(3); inlined into the JSON scanner's hot path).
    @inlinable
    @_spi(Engine) public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        count == 0 || memcmp(a, b, count) == 0
    }
}

extension Memory {
    /// The offset of the first `byte` in `haystack` at or after `from` (memchr(3)); nil when absent.
    @inlinable
    @_spi(Engine) public static func firstOffset(of byte: UInt8, in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress, from < haystack.count,
              let hit = memchr(base + from, Int32(byte), haystack.count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// The offset of the first `needle` in `haystack` (memchr(3) for its first byte, then memcmp); nil when
    /// absent. Glibc's module does not offer memmem.
    @_spi(Engine) public static func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, let base = haystack.baseAddress, let pattern = needle.baseAddress else { return nil }
        var at = 0
        while haystack.count - at >= needle.count {
            guard let hit = memchr(base + at, Int32(first), haystack.count - at) else { return nil }
            at = base.distance(to: UnsafeRawPointer(hit))
            guard haystack.count - at >= needle.count else { return nil }
            if memcmp(base + at, pattern, needle.count) == 0 { return at }
            at += 1
        }
        return nil
    }
}
