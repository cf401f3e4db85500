@_spi(Engine) import ClawSystem

/// Agent ids and session keys as the official CLI reads them (openclaw/openclaw
/// `src/routing/session-key.ts` @02df1c82, `src/sessions/session-key-utils.ts`).
@_spi(Engine) public enum AgentSessionKey {
    /// The agent every install has when its config names none.
    @_spi(Engine) public static let defaultAgentId = "main"

    /// `normalizeAgentId`: trimmed; an id of `[a-z0-9][a-z0-9_-]{0,63}` (any case) lower-cased;
    /// anything else lower-cased with each run of other characters made one `-`, edge dashes
    /// dropped and cut to 64; empty is `main`.
    @_spi(Engine) public static func normalizeAgentId(_ value: String?) -> String {
        let trimmed = TextTrim.trimmed(value ?? "")
        if trimmed.isEmpty { return defaultAgentId }
        if isValidAgentId(trimmed) { return trimmed.lowercased() }
        var out = ""
        var inRun = false
        for scalar in trimmed.lowercased().unicodeScalars {
            if isIdCharacter(scalar) {
                out.unicodeScalars.append(scalar)
                inRun = false
            } else if !inRun {
                out.append("-")
                inRun = true
            }
        }
        while out.hasPrefix("-") { out.removeFirst() }
        while out.hasSuffix("-") { out.removeLast() }
        let cut = String(out.prefix(64))
        return cut.isEmpty ? defaultAgentId : cut
    }

    static func isValidAgentId(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, scalars.count <= 64 else { return false }
        let alphanumeric = { (s: Unicode.Scalar) in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)
        }
        return alphanumeric(first) && scalars.allSatisfy { alphanumeric($0) || $0 == "_" || $0 == "-" }
    }

    private static func isIdCharacter(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == "-"
    }

    /// `parseAgentSessionKey`: `agent:<id>:<rest>` (lower-cased, empty segments dropped), else nil.
    @_spi(Engine) public static func parse(_ key: String) -> (agentId: String, rest: String)? {
        let raw = TextTrim.trimmed(key).lowercased()
        let parts = raw.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 3, parts[0] == "agent" else { return nil }
        let agentId = TextTrim.trimmed(parts[1])
        let rest = parts.dropFirst(2).joined(separator: ":")
        guard !agentId.isEmpty, !rest.isEmpty else { return nil }
        return (agentId, rest)
    }

    /// The listing never shows the gateway's own bookkeeping rows `agent:<id>:internal-session-effects:…`.
    static func isInternalSessionEffects(_ key: String) -> Bool {
        let parts = key.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count >= 4 && parts[0] == "agent" && parts[2] == "internal-session-effects"
    }
}
