/// Substring search from the standard library alone. `contains(_:)` with a string argument,
/// `firstRange(of:)` and `split(separator:)` with a string separator come from _StringProcessing, and
/// one such call links that module and its regex parser into the binary: 860 KB of code and tables
/// that the static binary relocates at every start (bench/README.md). Matches are of UTF-8 bytes,
/// which for the ASCII needles searched for here is the same as matching `Character`s.
extension StringProtocol {
    /// The first occurrence of `needle`; an empty needle occurs at the start.
    @_spi(Engine) public func firstRange(ofText needle: String) -> Range<Index>? {
        if needle.isEmpty { return startIndex..<startIndex }
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        let found = haystack.withUnsafeBytes { h in pattern.withUnsafeBytes { Memory.firstOffset(of: $0, in: h) } }
        guard let found else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: found)
        return lower..<utf8.index(lower, offsetBy: pattern.count)
    }

    /// Whether `needle` occurs in the text; never for an empty needle, as `contains(_:)` answers.
    @_spi(Engine) public func containsText(_ needle: String) -> Bool {
        !needle.isEmpty && firstRange(ofText: needle) != nil
    }

}

extension String {
    /// Every occurrence of `needle` replaced by `replacement`, left to right (an empty needle: none).
    @_spi(Engine) public func replacingText(_ needle: String, with replacement: String) -> String {
        guard !needle.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(ofText: needle) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
