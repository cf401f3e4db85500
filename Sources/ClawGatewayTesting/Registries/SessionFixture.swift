/// One `--sessions N[:AGENT]`: N empty sessions `agent:AGENT:s0001`… (AGENT defaults to `main`).
struct SessionFixture: Sendable, Equatable {
    var count: Int
    var agentId: String

    static func parse(_ text: String) throws(UsageError) -> SessionFixture {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let count = Int(parts[0]), (1...100_000).contains(count),
              parts.count == 1 || (!parts[1].isEmpty && !parts[1].contains(":"))
        else { throw UsageError("--sessions: expected N[:AGENT] (N 1-100000), got '\(text)'") }
        return SessionFixture(count: count, agentId: parts.count == 2 ? String(parts[1]).lowercased() : "main")
    }
}
