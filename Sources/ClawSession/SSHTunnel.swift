@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
// The official client's tunnel (openclaw/openclaw src/infra/ssh-tunnel.ts `startSshPortForward`, and
// src/gateway/client.ts `startSsh`, September 2026): the system ssh, found in system directories only; the
// local end on the configured URL's port when that is free on 127.0.0.1, else on one the kernel picks;
// `ssh -N -L 127.0.0.1:LOCAL:127.0.0.1:REMOTE` with the options of `arguments(route:localPort:)`, stdin and
// stdout on /dev/null, stderr kept for the error message (ours reads it for the tunnel's whole life, so
// a chatty `LogLevel` never fills the pipe and stalls ssh, and starts ssh with a parent-death signal, so
// it ends with openclaw even when openclaw is killed); ready once the forward listens and every
// listener on the local port is ssh's own; stopped with SIGTERM, then SIGKILL 1.5 s later. The gateway is
// then dialled at ws(s)://127.0.0.1:LOCAL with the configured path, and TLS checks the configured host name.

/// A running `ssh -N -L` port forward to a gateway (`gateway.remote.transport` ssh). Opened per
/// connection attempt; the owner stops it (`stop`) when the connection ends, and `deinit` stops one
/// still running, so no ssh outlives its tunnel.
@_spi(Engine) public final class SSHTunnel {
    @_spi(Engine) public let route: SSHRoute
    /// The forward's local end, on 127.0.0.1.
    @_spi(Engine) public let localPort: Int
    /// The ssh client that runs it.
    @_spi(Engine) public let executable: String
    @_spi(Engine) public let arguments: [String]
    private let process: Subprocess
    /// ssh's stderr, read on its own thread for as long as ssh runs (its last `errorOutputLimit` bytes are kept).
    private let errorOutput: PipeDrain
    /// How many bytes ssh had written on stderr when the forward was ready.
    private var outputAtStart = 0
    private var isStopped = false
    static let errorOutputLimit = 64 << 10

    @_spi(Engine) public var pid: Int32 { process.pid }

    private init(route: SSHRoute, localPort: Int, executable: String, arguments: [String], process: Subprocess,
                 errorOutput: PipeDrain) {
        self.route = route
        self.localPort = localPort
        self.executable = executable
        self.arguments = arguments
        self.process = process
        self.errorOutput = errorOutput
    }

    deinit { stop() }

    /// Opens the tunnel and waits until its forward listens and is ssh's. `preferredLocalPort` is the
    /// configured URL's port (what the official client tries first). The wait lasts at most
    /// `startTimeout` seconds (at least 0.25) and never past `deadline`; a readable `interruptDescriptor`
    /// (a signal's self-pipe) ends it. On any failure ssh has been stopped and reaped.
    @_spi(Engine) public static func open(
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
        configuration.endsWithParent = true
        let process: Subprocess
        do { process = try Subprocess.spawn(configuration) } catch {
            switch error {
            case .spawnFailed(let cause), .io(let cause): throw .cannotStart(executable: executable, cause)
            }
        }
        let errorOutput: PipeDrain
        do { errorOutput = try PipeDrain(descriptor: process.takeStandardError(), limit: errorOutputLimit) } catch {
            process.terminate(grace: 0)
            throw .cannotStart(executable: executable, error)
        }
        let tunnel = SSHTunnel(route: route, localPort: localPort, executable: executable, arguments: arguments,
                               process: process, errorOutput: errorOutput)
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
    @_spi(Engine) public static func arguments(route: SSHRoute, localPort: Int) -> [String] {
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
            if let end = process.checkTermination() {
                errorOutput.stop()
                throw .exited(end, errorLines: errorLines)
            }
            switch SocketOwnership.listeners(onPort: localPort, ownedBy: process.pid) {
            case .owned:
                outputAtStart = errorOutput.read().total
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
            // ssh's exit is noticed within 50 ms; the signal's self-pipe ends the wait at once.
            let ready = (try? Poll.waitAny([interruptDescriptor ?? -1], events: Poll.readable,
                                           deadline: min(limit, .after(seconds: 0.05)))) ?? []
            if let interruptDescriptor, ready.contains(interruptDescriptor) { throw fail(.interrupted) }
        }
    }

    /// ssh's stderr so far (its last `errorOutputLimit` bytes) as lines: carriage returns and blank lines
    /// dropped, each line at most 300 characters.
    @_spi(Engine) public var errorLines: [String] { Self.lines(errorOutput.read(), from: 0) }

    /// What ssh wrote on stderr after the forward was ready (a refused channel, a lost server, …).
    @_spi(Engine) public var laterErrorLines: [String] { Self.lines(errorOutput.read(), from: outputAtStart) }

    /// The lines of `output` from byte `offset` of everything ssh wrote; a line cut by what was not
    /// kept is left out, and so are the `debug1:`…`debug3:` lines a `LogLevel` in the user's ssh
    /// config adds (ssh's errors are never among them).
    static func lines(_ output: (kept: [UInt8], total: Int), from offset: Int) -> [String] {
        let keptFrom = output.total - output.kept.count
        var bytes = output.kept.dropFirst(max(0, offset - keptFrom))
        if keptFrom > offset, let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            bytes = bytes[(end + 1)...]
        }
        return String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { TextTrim.trimmed(String($0)) }
            .filter { !$0.isEmpty && !isDebugLine($0) }
            .map { $0.count > 300 ? String($0.prefix(300)) + "…" : $0 }
    }

    static func isDebugLine(_ line: String) -> Bool {
        ["debug1: ", "debug2: ", "debug3: "].contains { line.hasPrefix($0) }
    }

    /// How ssh ended, once it has (reaped then); nil while it runs.
    @_spi(Engine) public var termination: Subprocess.Termination? { process.checkTermination() }

    /// Waits up to `seconds` for ssh to end; its termination, or nil while it still runs.
    @_spi(Engine) public func waitForExit(seconds: Double) -> Subprocess.Termination? {
        process.wait(until: .after(seconds: seconds))
    }

    /// Stops ssh: SIGTERM, SIGKILL after `grace` seconds if it is still running, then reaps it. Safe to repeat.
    @_spi(Engine) public func stop(grace: Double = 1.5) {
        guard !isStopped else { return }
        isStopped = true
        // Already reaped: its process group number may belong to someone else now (ssh -N starts no children).
        if process.checkTermination() == nil { process.terminate(grace: grace) }
        errorOutput.stop()
    }

    /// `options` for a connection through this tunnel: the URL becomes `ws(s)://127.0.0.1:LOCAL` with the
    /// same path and query (so `Host` names the local end, as the official client's does), TLS keeps the
    /// configured host as the name to check, and device tokens are filed under the route's scope.
    @_spi(Engine) public func sessionOptions(_ options: SessionOptions) -> SessionOptions {
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
