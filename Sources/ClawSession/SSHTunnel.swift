import ClawSystem
import ClawTransport
import ClawState
// The official client's tunnel (openclaw/openclaw src/infra/ssh-tunnel.ts `startSshPortForward`, and
// src/gateway/client.ts `startSsh`, September 2026): the system ssh, found in system directories only; the
// local end on the configured URL's port when that is free on 127.0.0.1, else on one the kernel picks;
// `ssh -N -L 127.0.0.1:LOCAL:127.0.0.1:REMOTE` with the options of `arguments(route:localPort:)`, stdin and
// stdout on /dev/null, stderr kept for the error message; ready once the forward listens and every
// listener on the local port is ssh's own; stopped with SIGTERM, then SIGKILL 1.5 s later. The gateway is
// then dialled at ws(s)://127.0.0.1:LOCAL with the configured path, and TLS checks the configured host name.

/// A running `ssh -N -L` port forward to a gateway (`gateway.remote.transport` ssh). Opened per
/// connection attempt; the owner stops it (`stop`) when the connection ends, and `deinit` stops one
/// still running, so no ssh outlives its tunnel.
public final class SSHTunnel {
    public let route: SSHRoute
    /// The forward's local end, on 127.0.0.1.
    public let localPort: Int
    /// The ssh client that runs it.
    public let executable: String
    public let arguments: [String]
    private let process: Subprocess
    /// ssh's stderr so far (at most `errorOutputLimit` bytes are kept).
    private var errorOutput: [UInt8] = []
    /// How many of ssh's stderr lines came before the forward was ready.
    private var linesAtStart = 0
    private var isStopped = false
    static let errorOutputLimit = 64 << 10

    public var pid: Int32 { process.pid }

    private init(route: SSHRoute, localPort: Int, executable: String, arguments: [String], process: Subprocess) {
        self.route = route
        self.localPort = localPort
        self.executable = executable
        self.arguments = arguments
        self.process = process
    }

    deinit { stop() }

    /// Opens the tunnel and waits until its forward listens and is ssh's. `preferredLocalPort` is the
    /// configured URL's port (what the official client tries first). The wait lasts at most
    /// `startTimeout` seconds (at least 0.25) and never past `deadline`; a readable `interruptDescriptor`
    /// (a signal's self-pipe) ends it. On any failure ssh has been stopped and reaped.
    public static func open(
        route: SSHRoute, preferredLocalPort: Int, environment: Environment, deadline: Deadline,
        startTimeout: Double = 10, interruptDescriptor: Int32? = nil,
        clientLocations: [String] = SSHClient.systemLocations
    ) throws(SSHTunnelFailure) -> SSHTunnel {
        guard let executable = SSHClient.locate(in: clientLocations) else { throw .clientNotFound(searched: clientLocations) }
        let localPort = try chooseLocalPort(preferred: preferredLocalPort)
        let arguments = arguments(route: route, localPort: localPort)
        // The gateway's own credentials stay here: ssh hands its environment to ProxyCommand,
        // KnownHostsCommand and (SendEnv) the remote host.
        var childEnvironment = environment.values
        for name in ["OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD"] { childEnvironment[name] = nil }
        var configuration = Subprocess.Configuration(executable: executable, arguments: arguments, environment: childEnvironment)
        configuration.standardError = .pipe
        let process: Subprocess
        do { process = try Subprocess.spawn(configuration) } catch {
            switch error {
            case .spawnFailed(let cause), .io(let cause): throw .cannotStart(executable: executable, cause)
            }
        }
        let tunnel = SSHTunnel(route: route, localPort: localPort, executable: executable, arguments: arguments, process: process)
        try tunnel.waitUntilListening(
            until: min(deadline, .after(seconds: max(0.25, startTimeout))), deadline: deadline,
            limitSeconds: max(0.25, startTimeout), interruptDescriptor: interruptDescriptor)
        return tunnel
    }

    /// The configured URL's port when it is free on 127.0.0.1 now; else, when it is taken or not ours
    /// to use (`EADDRINUSE`, `EACCES`, `EPERM`), a port the kernel picks.
    static func chooseLocalPort(preferred: Int) throws(SSHTunnelFailure) -> Int {
        do {
            try LoopbackPort.checkAvailable(preferred)
            return preferred
        } catch where LoopbackPort.isUnavailable(error) {
            do { return try LoopbackPort.ephemeral() } catch { throw .noLocalPort(error) }
        } catch {
            throw .noLocalPort(error)
        }
    }

    /// ssh's arguments, in the official client's order. `-p` only when the target names a port (else
    /// ssh_config decides); `StrictHostKeyChecking=yes` unless the policy is `openssh`; `-i` as configured.
    public static func arguments(route: SSHRoute, localPort: Int) -> [String] {
        var arguments = ["-N", "-L", "127.0.0.1:\(localPort):127.0.0.1:\(route.remotePort)"]
        if let port = route.target.port { arguments += ["-p", String(port)] }
        arguments += ["-o", "ExitOnForwardFailure=yes", "-o", "BatchMode=yes",
                      "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ControlPersist=no",
                      "-o", "ForkAfterAuthentication=no"]
        if route.hostKeyPolicy == .strict { arguments += ["-o", "StrictHostKeyChecking=yes"] }
        arguments += ["-o", "UpdateHostKeys=yes", "-o", "ConnectTimeout=5", "-o", "ServerAliveInterval=15",
                      "-o", "ServerAliveCountMax=3"]
        if let identity = route.identity { arguments += ["-i", identity] }
        return arguments + ["--", route.target.destination]
    }

    private func waitUntilListening(
        until limit: Deadline, deadline: Deadline, limitSeconds: Double, interruptDescriptor: Int32?
    ) throws(SSHTunnelFailure) {
        func fail(_ failure: SSHTunnelFailure) -> SSHTunnelFailure {
            stop()
            return failure
        }
        var someoneElseListens = false
        while true {
            readErrorOutput()
            if let end = process.checkTermination() {
                readErrorOutput()
                throw .exited(end, errorLines: errorLines)
            }
            switch SocketOwnership.listeners(onPort: localPort, ownedBy: process.pid) {
            case .owned:
                linesAtStart = errorLines.count
                return
            case .notListening:
                break
            case .foreign(let sshListens):
                // Another process took the port. Beside ssh's own listener: fail now. Before ssh bound it:
                // ssh fails its bind and exits (ExitOnForwardFailure) with its own reason, which says more.
                if sshListens { throw fail(.listenerNotOwned(port: localPort, errorLines: errorLines)) }
                someoneElseListens = true
            case .unknown:
                // ssh may have just died, taking its sockets with it: say so rather than fail to tell.
                if process.wait(until: .after(seconds: 0.05)) != nil { continue }
                throw fail(.listenerNotOwned(port: localPort, errorLines: errorLines))
            }
            if limit.hasPassed {
                if deadline.hasPassed { throw fail(.timedOut(errorLines: errorLines)) }
                throw fail(someoneElseListens ? .listenerNotOwned(port: localPort, errorLines: errorLines)
                           : .notListening(port: localPort, limitSeconds: limitSeconds, errorLines: errorLines))
            }
            let descriptors = [process.standardError, interruptDescriptor ?? -1]
            let ready = (try? Poll.waitAny(descriptors, events: Poll.readable, deadline: min(limit, .after(seconds: 0.05)))) ?? []
            if let interruptDescriptor, ready.contains(interruptDescriptor) { throw fail(.interrupted) }
        }
    }

    /// Moves what ssh wrote on stderr into `errorOutput`; closes the pipe at its end.
    private func readErrorOutput() {
        let descriptor = process.standardError
        guard descriptor >= 0 else { return }
        var chunk: [UInt8] = []
        while true {
            chunk.removeAll(keepingCapacity: true)
            guard let result = try? Subprocess.readAvailable(descriptor, into: &chunk) else {
                process.closeStandardError()
                return
            }
            switch result {
            case .read:
                errorOutput += chunk.prefix(max(0, Self.errorOutputLimit - errorOutput.count))
            case .endOfStream:
                process.closeStandardError()
                return
            case .wouldBlock:
                return
            }
        }
    }

    /// ssh's stderr so far as lines: carriage returns and blank lines dropped, each line at most 300 characters.
    public var errorLines: [String] {
        readErrorOutput()
        return String(decoding: errorOutput, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { TextTrim.trimmed(String($0)) }
            .filter { !$0.isEmpty }
            .map { $0.count > 300 ? String($0.prefix(300)) + "…" : $0 }
    }

    /// What ssh wrote on stderr after the forward was ready (a refused channel, a lost server, …).
    public var laterErrorLines: [String] { Array(errorLines.dropFirst(linesAtStart)) }

    /// How ssh ended, once it has (reaped then); nil while it runs.
    public var termination: Subprocess.Termination? { process.checkTermination() }

    /// Waits up to `seconds` for ssh to end; its termination, or nil while it still runs.
    public func waitForExit(seconds: Double) -> Subprocess.Termination? {
        process.wait(until: .after(seconds: seconds))
    }

    /// Stops ssh: SIGTERM, SIGKILL after `grace` seconds if it is still running, then reaps it. Safe to repeat.
    public func stop(grace: Double = 1.5) {
        guard !isStopped else { return }
        isStopped = true
        readErrorOutput()
        // Already reaped: its process group number may belong to someone else now (ssh -N starts no children).
        if process.checkTermination() == nil { process.terminate(grace: grace) }
        process.closeStandardError()
    }

    /// `options` for a connection through this tunnel: the URL becomes `ws(s)://127.0.0.1:LOCAL` with the
    /// same path and query (so `Host` names the local end, as the official client's does), TLS keeps the
    /// configured host as the name to check, and device tokens are filed under the route's scope.
    public func sessionOptions(_ options: SessionOptions) -> SessionOptions {
        Self.tunnelledOptions(options, route: route, localPort: localPort)
    }

    static func tunnelledOptions(_ options: SessionOptions, route: SSHRoute, localPort: Int) -> SessionOptions {
        var through = options
        let configured = options.url
        if configured.isSecure && through.tls == nil { through.tls = TLSClientOptions(serverName: configured.host) }
        through.url = WebSocketURL(isSecure: configured.isSecure, host: "127.0.0.1", port: localPort, path: configured.path)
        through.urlOrigin = nil  // the tunnel's messages say where it went
        through.sshRoute = nil
        if let store = options.deviceAuthStore as? DatabaseDeviceTokens, case .gatewayScope = store.target {
            through.deviceAuthStore = store.filed(under: .gatewayScope(route.deviceTokenScope))
        }
        return through
    }
}
