/// A mistake in how openclaw was invoked (exit status 2). The message says what to do.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The closest of `candidates` to `word`, when it is close enough to be a likely typo.
func closestMatch(to word: String, in candidates: [String]) -> String? {
    let stripped = word.drop(while: { $0 == "-" })
    if stripped.count >= 2, let prefixed = candidates.first(where: { $0.drop(while: { $0 == "-" }).hasPrefix(stripped) }) {
        return prefixed
    }
    let scored = candidates.map { ($0, editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(2, word.count / 3) ? best.0 : nil
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
