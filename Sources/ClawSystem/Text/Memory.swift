import Glibc

/// Byte comparison for the layers above, which do not import the C library themselves.
@_spi(Engine) public enum Memory {
    /// Whether `count` bytes at `a` and `b` are equal (memcmp(3); inlined into the JSON scanner's hot path).
    @inlinable
    @_spi(Engine) public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        count == 0 || memcmp(a, b, count) == 0
    }
}
