@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The way to the gateway of one command: the engine's `GatewayConnector` (the SSH step when
/// `gateway.remote.transport` is ssh, a new tunnel for every connection attempt, then the connect),
/// with this CLI's words for what goes wrong. The previous attempt's tunnel is stopped when the next
/// opens or when its attempt fails, and the last one when the command ends, on every path (the
/// dispatcher calls `stopAll`).
final class SSHTunnels {
    /// The connector of the latest connection attempt.
    private var connector: GatewayConnector?
    private var current: SSHTunnel? { connector?.tunnel }

    /// The route step of an attempt: a new tunnel when `options` name one, and the options that dial
    /// it. A tunnel that cannot be opened is exit 3 with ssh's own words (retryable, so `watch` tries
    /// again with a new one), exit 4 when ssh refused the host key or the login, 5 when `--timeout`
    /// passes, 130/143 on a signal.
    func open(_ options: SessionOptions, deadline: Deadline?, context: CommandContext) throws -> (GatewayConnector, SessionOptions) {
        stopAll()
        let connector = GatewayConnector(options: options, environment: context.environment, interrupt: context.signals.descriptor)
        self.connector = connector
        do {
            return (connector, try connector.route(deadline: deadline ?? context.deadline))
        } catch {
            throw Self.failure(error, route: options.sshRoute!, context: context)
        }
    }

    /// Stops the current tunnel (SIGTERM, SIGKILL after 1.5 s) and reaps its ssh.
    func stopAll() {
        connector?.stopTunnel()
        connector = nil
    }

    /// A lost or failed connection through the tunnel, with what ssh says about it: that it ended (the
    /// tunnel closed), or what it wrote since the forward was ready (a refused channel, a dead server).
    func explain(_ error: GatewayError) -> GatewayError {
        guard let tunnel = current else { return error }
        let why: String
        switch error {
        case .cannotConnect, .connectFailed, .connectionLost:
            let text = FailureMessages.sentence(for: error)
            // The forwarded socket closes as ssh exits; it is reaped a moment later.
            if let end = tunnel.termination ?? tunnel.waitForExit(seconds: 0.25) {
                why = "\(text); " + FailureMessages.tunnelClosed(tunnel, end)
            } else if !tunnel.laterErrorLines.isEmpty {
                why = "\(text); ssh: " + FailureMessages.joined(tunnel.laterErrorLines)
            } else {
                return error
            }
        default:
            return error
        }
        if case .connectionLost(_, let code) = error { return .connectionLost(why, closeCode: code) }
        return .cannotConnect(why)
    }

    /// `explain` for whatever a command threw.
    func explain(_ error: any Error) -> any Error {
        guard let gatewayError = error as? GatewayError else { return error }
        return explain(gatewayError)
    }

    static func failure(_ failure: SSHTunnelFailure, route: SSHRoute, context: CommandContext) -> any Error {
        let sentence = FailureMessages.sentence(for: failure, route: route)
        switch failure.disposition {
        case .interrupted: return CommandFailure(ExitStatus(signal: context.signals.received), sentence)
        case .timedOut: return context.timeoutFailure("opening the SSH tunnel to \(route.target)")
        case .clientUnusable: return CommandFailure(.connection, sentence)
        case .refused: return CommandFailure(.authentication, sentence)
        case .transient: return GatewayError.cannotConnect(sentence)
        }
    }
}
