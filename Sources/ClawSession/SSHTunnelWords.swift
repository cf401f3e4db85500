@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState

/// ssh's own words about a tunnel, for both faces' messages.
extension SSHTunnel {
    /// A tunnel that ended while its connection was in use.
    @_spi(Engine) public func closedSentence(_ end: Subprocess.Termination) -> String {
        let lines = laterErrorLines
        return "the SSH tunnel to \(route.target) closed (ssh \(Self.describe(end))\(lines.isEmpty ? "" : ": " + Self.joined(lines)))"
    }

    /// ssh's stderr lines as one line (the last 8 at most): a line that ends a sentence is followed by a
    /// space, any other by "; ".
    @_spi(Engine) public static func joined(_ lines: [String]) -> String {
        var text = ""
        for line in lines.count > 8 ? ["…"] + lines.suffix(8) : lines {
            if !text.isEmpty { text += text.hasSuffix(".") ? " " : "; " }
            text += line
        }
        return text
    }

    /// "exited with code 255", "was killed by signal 9": `Termination`'s own words, as a predicate.
    @_spi(Engine) public static func describe(_ end: Subprocess.Termination) -> String {
        if case .signalled = end { return "was \(end)" }
        return "\(end)"
    }
}
