import Glibc

/// Substring search over bytes: memchr jumps to each occurrence of one chosen byte of the
/// needle (pick a rare one), memcmp checks the rest. (glibc's memmem is a GNU extension the
/// Glibc module does not export.)
public enum ByteSearch {
    /// True when `needle` occurs in `haystack`; `anchor` is the index in `needle` of the byte to scan for.
    public static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, anchor: Int = 0) -> Bool {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress, needle.count > 0 else { return needle.isEmpty }
        guard haystack.count >= needle.count, anchor >= 0, anchor < needle.count else { return false }
        let byte = Int32(needle[anchor])
        // Occurrences of the anchor can start at `anchor` and end `needle.count - anchor - 1` before the end.
        var from = anchor
        let limit = haystack.count - (needle.count - anchor - 1)
        while from < limit {
            guard let hit = memchr(base + from, byte, limit - from) else { return false }
            let position = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + position - anchor, pattern, needle.count) == 0 { return true }
            from = position + 1
        }
        return false
    }
}
