@_spi(Engine) import ClawSystem

/// What the process's descriptors are connected to, asked once: text mode streams and draws only
/// for a person at a terminal, and colour only when NO_COLOR is unset.
struct Terminal: Sendable {
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    let colour: Bool

    static func detect(noColor: String?, term: String?) -> Terminal {
        let out = TerminalDevice.isTerminal(1), err = TerminalDevice.isTerminal(2)
        let noColour = noColor.map { !$0.isEmpty } ?? false
        return Terminal(stdoutIsTerminal: out, stderrIsTerminal: err, colour: out && !noColour && term != "dumb")
    }

    /// Columns of the terminal on stdout (80 when it cannot be asked).
    static func columns() -> Int { TerminalDevice.columns(1) ?? 80 }
}
