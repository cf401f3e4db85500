/// stdout for data, stderr for people: the streams and the `--quiet` choice, carried in the command
/// context (as gh's IOStreams) instead of living in globals.
struct Console: Sendable {
    let out: OutputStream
    let err: OutputStream
    let quiet: Bool

    /// The process's own stdout and stderr.
    static func standard(quiet: Bool = false) -> Console {
        Console(out: OutputStream(descriptor: 1), err: OutputStream(descriptor: 2), quiet: quiet)
    }

    func quieted(_ quiet: Bool) -> Console { Console(out: out, err: err, quiet: quiet) }

    /// A diagnostic line on stderr, unless `--quiet`.
    func note(_ message: String) {
        guard !quiet else { return }
        err.write("openclaw: \(Console.oneLine(message))\n")
        err.flush()
    }

    /// The final error; printed even with `--quiet`.
    func error(_ message: String) {
        err.write("openclaw: error: \(Console.oneLine(message))\n")
        err.flush()
    }

    /// Writes out buffered data; throws `OutputClosed` once the reader of stdout has gone.
    func flushOutput() throws {
        if !out.flush() { throw OutputClosed() }
    }

    /// Messages quote gateway text (error messages, close reasons): control characters become `?`,
    /// so a hostile peer can neither split the line nor send terminal escapes.
    static func oneLine(_ message: String) -> String { sanitized(message, keepingLineBreaks: false) }

    /// Gateway text for a terminal: control characters become `?` (line breaks and tabs too, unless kept).
    static func sanitized(_ text: String, keepingLineBreaks: Bool) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            if keepingLineBreaks && (scalar == "\n" || scalar == "\t") { return false }
            return scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isControl(scalar) ? "?" : scalar) }
        return String(scalars)
    }
}

/// The reader of stdout went away (`openclaw watch | head -1`): stop quietly.
struct OutputClosed: Error {}
