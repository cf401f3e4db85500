@_spi(Engine) import ClawProtocol

/// How `send -o text` shows a reply (the contract is in docs/cli.md, Text mode):
/// - stdout not a terminal: the final reply text once, then one newline, whatever the deltas did;
/// - `--stream` on a pipe: append-only, a rewritten text restarts on its own line at the end;
/// - a terminal: live, redrawing what was drawn when the gateway replaces the text.
/// On a terminal stderr (and without `-q`) a one-line status (`thinking…`, `running web_search…`)
/// shows while the cursor is at the start of a line, cleared before any text is written.
struct ReplyRenderer {
    enum Mode { case finalOnly, appendOnly, live }

    let mode: Mode
    private let console: Console
    private let showsStatus: Bool
    private var appendOnly = AppendOnlyReply()
    /// What the terminal shows of the reply (live mode).
    private var drawn = ""
    private var status: String?

    init(console: Console, terminal: Terminal, stream: Bool) {
        self.console = console
        mode = terminal.stdoutIsTerminal ? .live : (stream ? .appendOnly : .finalOnly)
        showsStatus = terminal.stderrIsTerminal && !console.quiet
    }

    mutating func show(_ update: ReplyAssembler.Update) {
        switch mode {
        case .finalOnly:
            if let end = update.end, end.state == .final { console.out.write(update.text + "\n") }
        case .appendOnly:
            console.out.write(appendOnly.output(for: update))
        case .live:
            draw(update)
        }
        setStatus(update.end == nil ? update.progress : nil)
    }

    /// Ends a partly written line when the command stops early (a signal, a lost link).
    mutating func interrupted() {
        setStatus(nil)
        let written = mode == .live ? drawn : appendOnly.written
        if !written.isEmpty && !written.hasSuffix("\n") { console.out.write("\n") }
    }

    private mutating func draw(_ update: ReplyAssembler.Update) {
        let text = Self.printable(update.text)
        if text != drawn {
            setStatus(nil)
            if text.hasPrefix(drawn) {
                console.out.write(String(text.dropFirst(drawn.count)))
            } else {
                console.out.write(Self.erase(drawn, columns: Terminal.columns()) + text)
            }
            drawn = text
        }
        if update.end != nil {
            setStatus(nil)
            console.out.write("\n")
            drawn += "\n"
        }
    }

    /// The status line lives on stderr at the start of an empty line, and only there.
    private mutating func setStatus(_ text: String?) {
        guard showsStatus else { return }
        let wanted = text.map(Console.oneLine)
        guard wanted != status else { return }
        if status != nil { console.err.write("\r\u{1B}[2K") }
        status = nil
        let atLineStart = mode == .live ? (drawn.isEmpty || drawn.hasSuffix("\n"))
                                        : (appendOnly.written.isEmpty || appendOnly.written.hasSuffix("\n"))
        if let wanted, atLineStart {
            _ = console.out.flush()
            console.err.write(wanted)
            status = wanted
        }
        console.err.flush()
    }

    /// Moves the cursor back to where `text` began and clears from there (rows counted at `columns`).
    static func erase(_ text: String, columns: Int) -> String {
        guard !text.isEmpty else { return "" }
        var rows = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            rows += max(1, (line.unicodeScalars.count + columns - 1) / max(columns, 1))
        }
        // The cursor is on the last row (the empty one after a final newline).
        let up = rows - 1
        return "\r" + (up > 0 ? "\u{1B}[\(up)A" : "") + "\u{1B}[J"
    }

    /// Reply text for a terminal: a reply can neither move the cursor nor retitle the window.
    static func printable(_ text: String) -> String { Console.sanitized(text, keepingLineBreaks: true) }
}
