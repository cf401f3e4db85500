import Foundation
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// A WebSocket echo server in the server role on a real loopback listener, one thread per connection:
/// each data message comes back whole with its type. Failures (bad TLS clients, say) just end that connection.
final class EchoServer: @unchecked Sendable {
    let listener: TCPListener
    let tls: TLSServerContext?
    private let lock = NSLock()
    private var failures: [String] = []

    var port: Int { listener.port }

    init(host: String = "127.0.0.1", tls: TLSServerContext? = nil) throws {
        listener = try TCPListener(host: host, port: 0)
        self.tls = tls
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Why server-side connections ended abnormally (TLS handshake refusals and the like).
    var serverFailures: [String] { lock.withLock { failures } }

    func stop() { listener.close() }

    private func acceptLoop() {
        while true {
            guard let tcp = try? listener.accept(deadline: .never) else { return }
            let thread = Thread { [self] in serve(tcp) }
            thread.start()
        }
    }

    private func serve(_ tcp: TCPStream) {
        let deadline = Deadline.after(seconds: 30)
        do {
            let stream: ByteStream = try tls.map { try TLSStream.server(over: tcp, context: $0, deadline: deadline) } ?? tcp
            let (connection, _) = try WebSocketConnection.accept(stream: stream, deadline: deadline)
            while let message = try connection.receive(deadline: .after(seconds: 30)) {
                switch message {
                case .text(let bytes): try connection.send(text: bytes, deadline: .after(seconds: 30))
                case .binary(let bytes): try connection.send(binary: bytes, deadline: .after(seconds: 30))
                }
            }
        } catch {
            lock.withLock { failures.append("\(error)") }
        }
    }
}
