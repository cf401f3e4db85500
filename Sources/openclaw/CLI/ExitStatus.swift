@_spi(Engine) import ClawSession

/// The exit statuses of docs/cli.md; scripts depend on these numbers.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case gatewayError = 1
    case usage = 2
    case connection = 3
    case authentication = 4
    case timeout = 5
    case protocolError = 6
    case interrupted = 130
    case terminated = 143

    init(_ error: GatewayError) {
        switch error {
        case .cannotConnect, .connectFailed, .upgradeRejected, .certificateRejected, .connectionLost, .unavailable,
             .admissionRefused: self = .connection
        case .authenticationFailed: self = .authentication
        case .timedOut, .handshakeTimedOut, .handshakeStepTimedOut: self = .timeout
        case .protocolError: self = .protocolError
        case .invalidRequest: self = .usage
        }
    }

    /// 130 for SIGINT, 143 for SIGTERM.
    init(signal: Int32) { self = signal == 15 ? .terminated : .interrupted }
}

/// A failure the command has already written out in its own words (`gateway call` speaks the
/// official CLI's): the dispatcher only ends with `status`.
struct ReportedFailure: Error {
    let status: ExitStatus
}

/// A failure that ends the command with `status` after printing `message` as the final error.
struct CommandFailure: Error {
    let status: ExitStatus
    let message: String
    init(_ status: ExitStatus, _ message: String) { self.status = status; self.message = message }
    init(_ error: GatewayError) { self.init(ExitStatus(error), FailureMessages.sentence(for: error)) }
}
