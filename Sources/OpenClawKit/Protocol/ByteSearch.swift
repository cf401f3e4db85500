import Glibc

/// Substring search over bytes: memchr jumps to each occurrence of one chosen byte of the
/// needle (pick a rare one), then the rest is compared. (glibc's memmem is a GNU extension the
/// Glibc module does not export, and it cannot ignore case.)
public enum ByteSearch {
    /// True when `needle` occurs in `haystack`; `anchor` is the index in `needle` of the byte to scan for.
    public static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, anchor: Int = 0) -> Bool {
        search(haystack, needle, anchor: anchor, anchorByte: needle.isEmpty ? 0 : needle[anchor]) { candidate, pattern, count in
            memcmp(candidate, pattern, count) == 0
        }
    }

    /// The same with ASCII letters compared case-insensitively; `needle` must be lower case.
    public static func containsIgnoringASCIICase(_ haystack: UnsafeRawBufferPointer, _ lowercasedNeedle: UnsafeRawBufferPointer,
                                                 anchor: Int = 0) -> Bool {
        let equalFolded: (UnsafeRawPointer, UnsafeRawPointer, Int) -> Bool = { candidate, pattern, count in
            for k in 0..<count where fold(candidate.load(fromByteOffset: k, as: UInt8.self)) != pattern.load(fromByteOffset: k, as: UInt8.self) {
                return false
            }
            return true
        }
        guard !lowercasedNeedle.isEmpty, anchor < lowercasedNeedle.count else { return lowercasedNeedle.isEmpty }
        let lower = lowercasedNeedle[anchor]
        if search(haystack, lowercasedNeedle, anchor: anchor, anchorByte: lower, equal: equalFolded) { return true }
        let upper = lower >= 0x61 && lower <= 0x7A ? lower - 0x20 : lower
        return upper != lower && search(haystack, lowercasedNeedle, anchor: anchor, anchorByte: upper, equal: equalFolded)
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    private static func search(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, anchor: Int, anchorByte: UInt8,
                               equal: (UnsafeRawPointer, UnsafeRawPointer, Int) -> Bool) -> Bool {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress, needle.count > 0 else { return needle.isEmpty }
        guard haystack.count >= needle.count, anchor >= 0, anchor < needle.count else { return false }
        // An occurrence's anchor lies between `anchor` and `needle.count - anchor - 1` bytes before the end.
        var from = anchor
        let limit = haystack.count - (needle.count - anchor - 1)
        while from < limit {
            guard let hit = memchr(base + from, Int32(anchorByte), limit - from) else { return false }
            let position = base.distance(to: UnsafeRawPointer(hit))
            if equal(base + position - anchor, pattern, needle.count) { return true }
            from = position + 1
        }
        return false
    }
}
