@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The words for SSH tunnel failures (`SSHTunnelFailure`); ssh's own stderr lines are quoted.
extension FailureMessages {
    static func sentence(for failure: SSHTunnelFailure, route: SSHRoute) -> String {
        let tunnel = "SSH tunnel to \(route.target)"
        let said = failure.errorLines.isEmpty ? "" : ": " + joined(failure.errorLines)
        switch failure {
        case .clientNotFound(let searched):
            return "the gateway is reached through SSH (gateway.remote.sshTarget), but no trusted ssh client is installed"
                + " (looked for \(searched.joined(separator: ", ")), owned by root); install the OpenSSH client,"
                + " or set gateway.remote.transport to \"direct\" and open the tunnel yourself"
        case .cannotStart(let executable, let error):
            return "cannot start \(executable) for the \(tunnel): \(error)"
        case .noLocalPort(let error):
            return "\(tunnel): no local port on 127.0.0.1 for the forward: \(error)"
        case .exited(let end, _):
            return "\(tunnel) failed: ssh \(describe(end))\(said)" + hint(for: failure, route: route)
        case .notListening(let port, let limit, _):
            return "\(tunnel) failed: ssh did not start listening on 127.0.0.1:\(port) within \(formatSeconds(limit)) s\(said)"
                + hint(for: failure, route: route)
        case .listenerNotOwned(let port, _):
            return "\(tunnel) failed: cannot verify that the listener on 127.0.0.1:\(port) is ssh's own"
                + " (another process listens on that port too)\(said)"
        case .timedOut:
            return "timed out opening the \(tunnel)\(said)"
        case .interrupted:
            return "interrupted while opening the \(tunnel)"
        }
    }

    /// What to do about a refusal ssh reported.
    private static func hint(for failure: SSHTunnelFailure, route: SSHRoute) -> String {
        let login = "ssh" + (route.target.port.map { " -p \($0)" } ?? "") + " " + route.target.destination
        switch failure.refusal {
        case .hostKey:
            return " (the host key of \(route.target.host) is not known here, or has changed: run `\(login)` once to check"
                + " and record it, or set gateway.remote.sshHostKeyPolicy to \"openssh\" to let your ssh configuration decide)"
        case .authentication:
            return " (ssh could not log in: check gateway.remote.sshIdentity"
                + " and that its public key is in ~/.ssh/authorized_keys on \(route.target.host))"
        case nil:
            return ""
        }
    }

    static func joined(_ lines: [String]) -> String { SSHTunnel.joined(lines) }

    private static func describe(_ end: Subprocess.Termination) -> String { SSHTunnel.describe(end) }
}
