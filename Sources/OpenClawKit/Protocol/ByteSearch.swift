import Glibc

/// Substring search over bytes: memchr jumps to each candidate first byte, memcmp checks it.
/// (glibc's memmem is a GNU extension the Glibc module does not export.)
public enum ByteSearch {
    public static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress, needle.count > 0 else { return needle.isEmpty }
        let first = Int32(needle[0])
        var offset = 0
        while haystack.count - offset >= needle.count {
            guard let hit = memchr(base + offset, first, haystack.count - offset - needle.count + 1) else { return false }
            let position = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + position, pattern, needle.count) == 0 { return true }
            offset = position + 1
        }
        return false
    }
}
