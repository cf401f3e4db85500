import Foundation
@testable import ClawSystem
@testable import ClawTransport

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

/// A self-signed certificate for `localhost` and 127.0.0.1, made once with the `openssl` command.
struct TestCertificate: Sendable {
    let directory: String
    var certificatePath: String { directory + "/cert.pem" }
    var keyPath: String { directory + "/key.pem" }
    /// SHA-256 of the DER certificate as `openssl x509 -fingerprint -sha256` prints it.
    let fingerprint: String

    static let shared: TestCertificate? = try? TestCertificate.make()

    static func make() throws -> TestCertificate {
        let directory = NSTemporaryDirectory() + "openclaw-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                     "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                     "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem"])
        let output = try run(["x509", "-noout", "-fingerprint", "-sha256", "-in", directory + "/cert.pem"])
        guard let equals = output.firstIndex(of: "=") else { throw CocoaError(.fileReadCorruptFile) }
        let fingerprint = output[output.index(after: equals)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return TestCertificate(directory: directory, fingerprint: fingerprint)
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}
