import Glibc

/// The C library's text for an errno value.
@_spi(Engine) public func systemErrorText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// An errno value, read right after the call that set it, for layers that do not import the C library.
@_spi(Engine) public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    @_spi(Engine) public let code: Int32

    @_spi(Engine) public init(code: Int32) { self.code = code }

    /// errno as the last failed call left it.
    @_spi(Engine) public static var last: SystemError { SystemError(code: errno) }

    /// EINTR: the call should be repeated.
    @_spi(Engine) public var isInterrupted: Bool { code == EINTR }

    /// EAGAIN: a non-blocking descriptor has nothing to read (or no room to write) now.
    @_spi(Engine) public var isWouldBlock: Bool { code == EAGAIN }

    /// ECONNREFUSED: nothing listens at the address (yet).
    @_spi(Engine) public var isConnectionRefused: Bool { code == ECONNREFUSED }

    /// No error, or one that means the peer went away (reset, broken pipe, nothing to read).
    @_spi(Engine) public var meansPeerClosed: Bool { code == 0 || code == ECONNRESET || code == EPIPE || code == EAGAIN }

    @_spi(Engine) public var description: String { systemErrorText(code) }

    /// The constant's name for the errors a failed connect reports (`ECONNREFUSED`, …), as Node's
    /// messages name them; nil for any other.
    @_spi(Engine) public var connectErrorName: String? {
        switch code {
        case ECONNREFUSED: return "ECONNREFUSED"
        case ECONNRESET: return "ECONNRESET"
        case EHOSTUNREACH: return "EHOSTUNREACH"
        case ENETUNREACH: return "ENETUNREACH"
        case ETIMEDOUT: return "ETIMEDOUT"
        default: return nil
        }
    }
}
