import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport

/// The listening socket, the connections, the tick timer and orderly shutdown. Every thread it starts
/// (accept, tick, each connection's reader and writer) is counted, so `shutdown` returns after they end.
final class GatewayServer: @unchecked Sendable {
    let gateway: Gateway
    let listener: TCPListener
    let tlsContext: TLSServerContext?
    let log: FrameLog?
    /// Guards `connections`, `nextNumber` and `stopping`; broadcast when stopping (wakes the tick thread).
    private let lock = NSCondition()
    private var connections: [Int: ClientConnection] = [:]
    private var nextNumber = 1
    private var stopping = false
    /// Held for the whole of `shutdown`, so a second call waits for the first and then returns.
    private let shutdownLock = NSLock()
    /// The threads still running.
    private let threads = DispatchGroup()

    init(options: SimulatorOptions) throws(UsageError) {
        gateway = Gateway(options: options)
        do {
            listener = try TCPListener(host: options.host, port: options.port)
        } catch {
            throw UsageError("cannot listen on \(options.host):\(options.port): \(error)")
        }
        if let cert = options.tlsCertPath, let key = options.tlsKeyPath {
            do {
                tlsContext = try TLSServerContext(certificatePath: cert, keyPath: key)
            } catch {
                throw UsageError("cannot load --tls-cert/--tls-key: \(error)")
            }
        } else {
            tlsContext = nil
        }
        if let path = options.logPath {
            guard let log = FrameLog(path: path) else { throw UsageError("cannot open --log file '\(path)'") }
            self.log = log
        } else {
            log = nil
        }
    }

    var url: String {
        let host = gateway.options.host.contains(":") ? "[\(gateway.options.host)]" : gateway.options.host
        return "\(tlsContext == nil ? "ws" : "wss")://\(host):\(listener.port)"
    }

    /// Connections accepted whose reader has not ended yet.
    var connectionCount: Int { lock.withLock { connections.count } }

    func start() {
        spawn(name: "accept") { [self] in acceptLoop() }
        spawn(name: "tick") { [self] in tickLoop() }
    }

    /// Starts a thread that `shutdown` waits for.
    func spawn(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            defer { threads.leave() }
            body()
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    private func acceptLoop() {
        while !lock.withLock({ stopping }) {
            guard let stream = try? listener.accept(deadline: .after(seconds: 0.5)) else { continue }
            let connection: ClientConnection? = lock.withLock {
                guard !stopping else { return nil }
                let connection = ClientConnection(number: nextNumber, tcp: stream, gateway: gateway, server: self)
                connections[nextNumber] = connection
                nextNumber += 1
                return connection
            }
            guard let connection else { stream.close(); continue }
            connection.start()
        }
    }

    func connectionEnded(_ connection: ClientConnection) {
        lock.withLock { connections[connection.number] = nil }
    }

    private func tickLoop() {
        let interval = Double(gateway.options.tickMs) / 1000
        while true {
            let due = Date(timeIntervalSinceNow: interval)
            let stopped = lock.withLock { () -> Bool in
                while !stopping && Date() < due { _ = lock.wait(until: due) }
                return stopping
            }
            if stopped { return }
            if !gateway.options.has(.stopTicks) {
                gateway.hub.broadcast("tick", payload: ["ts": JSONValue(WallClock.milliseconds())])
            }
            if gateway.options.has(.ping) {
                for sink in gateway.hub.connected { (sink as? ClientConnection)?.enqueuePing() }
            }
        }
    }

    /// SIGTERM/SIGINT: `shutdown` to every client, close 1012 "service restart", the listener closed;
    /// returns once the server's threads have ended (each wait bounded). Later calls return at once.
    func shutdown() {
        shutdownLock.lock()
        defer { shutdownLock.unlock() }
        let all: [ClientConnection]? = lock.withLock {
            if stopping { return nil }
            stopping = true
            lock.broadcast()
            return Array(connections.values)
        }
        guard let all else { return }
        let restart: JSONValue = gateway.options.restartMs.map { JSONValue($0) } ?? .null
        gateway.hub.broadcast("shutdown", payload: ["reason": "gateway stopping", "restartExpectedMs": restart])
        for connection in all { connection.closeForRestart() }
        let closeDeadline = DispatchTime.now() + 3
        for connection in all { connection.waitUntilClosed(deadline: closeDeadline) }
        // One still upgrading, or a peer that never answered the close: cut its socket.
        for connection in all { connection.abort() }
        listener.close()
        _ = threads.wait(timeout: .now() + 10)
        // Runs still playing stop at their next step: no client is left to hear them.
        gateway.runs.stopAll()
    }
}
