
/// What `send --stream` writes to an output it cannot rewrite (a pipe or file): only characters that extend what
/// it already wrote. When the gateway rewrote the text it writes nothing more until the run ends, then — unless
/// the final text still extends what was written — a newline and the whole final text; the run's last write
/// always ends with one newline.
@_spi(Engine) public struct AppendOnlyReply: Sendable {
    /// Everything written so far.
    @_spi(Engine) public private(set) var written = ""

    @_spi(Engine) public init() {}

    /// The characters to write after `update`; "" when there is nothing new that can be appended.
    @_spi(Engine) public mutating func output(for update: ReplyAssembler.Update) -> String {
        var out = ""
        if case .append(let suffix) = ReplyAssembler.change(from: written, to: update.text) {
            out = suffix
            written = update.text
        } else if update.end != nil, !ReplyAssembler.sameBytes(update.text, written) {
            out = "\n" + update.text  // start the final text on a line of its own
            written += out
        }
        if update.end != nil {
            out += "\n"
            written += "\n"
        }
        return out
    }
}
