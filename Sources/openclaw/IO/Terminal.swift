import Glibc

/// What the process's descriptors are connected to, asked once: text mode streams and draws only
/// for a person at a terminal, and colour only when NO_COLOR is unset.
struct Terminal: Sendable {
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    let colour: Bool

    static func detect(noColor: String?, term: String?) -> Terminal {
        let out = isatty(1) == 1, err = isatty(2) == 1
        let noColour = noColor.map { !$0.isEmpty } ?? false
        return Terminal(stdoutIsTerminal: out, stderrIsTerminal: err, colour: out && !noColour && term != "dumb")
    }

    /// Columns of the terminal on stdout (80 when it cannot be asked).
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
