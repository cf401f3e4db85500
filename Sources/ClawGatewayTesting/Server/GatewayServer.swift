import Foundation
import ClawSystem
import ClawJSON
import ClawTransport

/// The listening socket, the connections, the tick timer and orderly shutdown.
final class GatewayServer: @unchecked Sendable {
    let gateway: Gateway
    let listener: TCPListener
    let tlsContext: TLSServerContext?
    let log: FrameLog?
    private let lock = NSLock()
    private var connections: [Int: ClientConnection] = [:]
    private var nextNumber = 1
    private var stopping = false

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

    func start() {
        let acceptor = Thread { [self] in acceptLoop() }
        acceptor.name = "accept"
        acceptor.start()
        let ticker = Thread { [self] in tickLoop() }
        ticker.name = "tick"
        ticker.start()
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
            Thread.sleep(forTimeInterval: interval)
            if lock.withLock({ stopping }) { return }
            if !gateway.options.has(.stopTicks) {
                gateway.hub.broadcast("tick", payload: ["ts": JSONValue(WallClock.milliseconds())])
            }
            if gateway.options.has(.ping) {
                for sink in gateway.hub.connected { (sink as? ClientConnection)?.enqueuePing() }
            }
        }
    }

    /// SIGTERM/SIGINT: `shutdown` to every client, close 1012 "service restart", then return.
    func shutdown() {
        let all: [ClientConnection] = lock.withLock {
            stopping = true
            return Array(connections.values)
        }
        let restart: JSONValue = gateway.options.restartMs.map { JSONValue($0) } ?? .null
        gateway.hub.broadcast("shutdown", payload: ["reason": "gateway stopping", "restartExpectedMs": restart])
        for connection in all { connection.closeForRestart() }
        for connection in all { connection.waitUntilClosed(timeout: 3) }
        listener.close()
    }
}
