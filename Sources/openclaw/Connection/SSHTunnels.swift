import ClawSystem
import ClawState
import ClawSession

/// The SSH tunnels of one command (`gateway.remote.transport` ssh, see `SSHTunnel`): a new one for every
/// connection attempt (`CommandContext.connect` opens it as the step before its connect loop), the
/// previous one stopped when the next opens or when its attempt fails, and the last one stopped when
/// the command ends, on every path (the dispatcher calls `stopAll`).
final class SSHTunnels {
    /// The tunnel of the latest connection attempt.
    private var current: SSHTunnel?

    /// Opens a tunnel for `route` (`options.sshRoute`) and returns the options that dial its local end.
    /// A tunnel that cannot be opened is exit 3 with ssh's own words (retryable, so `watch` tries again
    /// with a new one), exit 4 when ssh refused the host key or the login, 5 when `--timeout` passes,
    /// 130/143 on a signal.
    func open(_ options: SessionOptions, route: SSHRoute, deadline: Deadline?, context: CommandContext) throws -> SessionOptions {
        stopAll()
        let tunnel: SSHTunnel
        do {
            tunnel = try SSHTunnel.open(
                route: route, preferredLocalPort: options.url.port, environment: context.environment,
                deadline: deadline ?? context.deadline, startTimeout: options.connectTimeout,
                interruptDescriptor: context.signals.descriptor)
        } catch {
            throw Self.failure(error, route: route, context: context)
        }
        current = tunnel
        return tunnel.sessionOptions(options)
    }

    /// Stops the current tunnel (SIGTERM, SIGKILL after 1.5 s) and reaps its ssh.
    func stopAll() {
        current?.stop()
        current = nil
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
        switch failure {
        case .interrupted:
            return CommandFailure(ExitStatus(signal: context.signals.received), sentence)
        case .timedOut:
            return context.timeoutFailure("opening the SSH tunnel to \(route.target)")
        case .clientNotFound, .cannotStart:
            return CommandFailure(.connection, sentence)
        case .exited, .notListening, .listenerNotOwned, .noLocalPort:
            return failure.refusal != nil ? CommandFailure(.authentication, sentence) : GatewayError.cannotConnect(sentence)
        }
    }
}
