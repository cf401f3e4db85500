import Glibc

/// Whether a descriptor is a terminal, and how wide that terminal is.
@_spi(Engine) public enum TerminalDevice {
    /// `isatty(3)`.
    @_spi(Engine) public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The terminal's width in columns (`TIOCGWINSZ`); nil when `descriptor` is no terminal or it
    /// does not know its size.
    @_spi(Engine) public static func columns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
