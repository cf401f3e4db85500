@_spi(Engine) import ClawSystem

/// Why an SSH tunnel could not be opened. Cases carry ssh's own stderr lines (`errorLines`): they
/// say what went wrong on its side (host key, login, the forward, the network).
@_spi(Engine) public enum SSHTunnelFailure: Error, Sendable, Equatable {
    /// No trusted ssh client in the system directories.
    case clientNotFound(searched: [String])
    /// The client could not be started.
    case cannotStart(executable: String, SystemError)
    /// No port on 127.0.0.1 could be had for the local end.
    case noLocalPort(SystemError)
    /// ssh ended before its forward was listening.
    case exited(Subprocess.Termination, errorLines: [String])
    /// The forward was not listening within the start limit.
    case notListening(port: Int, limitSeconds: Double, errorLines: [String])
    /// Another process listens on the local port as well (or `/proc` cannot tell whose the listener is).
    case listenerNotOwned(port: Int, errorLines: [String])
    /// The caller's deadline passed before the forward was listening.
    case timedOut(errorLines: [String])
    /// The caller asked to stop (its interrupt descriptor became readable).
    case interrupted

    /// What ssh refused, recognised from its stderr.
    @_spi(Engine) public enum Refusal: Sendable, Equatable {
        /// The host key is unknown, or differs from the known one.
        case hostKey
        /// ssh could not log in (no key or password the server accepts).
        case authentication
    }

    @_spi(Engine) public var errorLines: [String] {
        switch self {
        case .exited(_, let lines), .notListening(_, _, let lines), .listenerNotOwned(_, let lines), .timedOut(let lines):
            return lines
        case .clientNotFound, .cannotStart, .noLocalPort, .interrupted:
            return []
        }
    }

    /// Set when ssh refused the host or the login: trying again will not help until someone acts.
    @_spi(Engine) public var refusal: Refusal? { Self.refusal(in: errorLines) }

    static func refusal(in lines: [String]) -> Refusal? {
        let hostKey = ["Host key verification failed", "REMOTE HOST IDENTIFICATION HAS CHANGED", "host key is known for",
                       "Host key for "]
        let login = ["Permission denied (", "Too many authentication failures", "Authentication failed"]
        for line in lines {
            if hostKey.contains(where: line.containsText) { return .hostKey }
        }
        for line in lines {
            if login.contains(where: line.containsText) { return .authentication }
        }
        return nil
    }
}
