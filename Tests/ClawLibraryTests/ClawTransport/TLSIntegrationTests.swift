import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// wss:// against the project's own TLS server side, with a self-signed certificate made by `openssl`.
@Suite(.enabled(if: TestCertificate.shared != nil, "needs the openssl command"))
struct TLSIntegrationTests {
    static var certificate: TestCertificate { TestCertificate.shared! }

    static func startServer() throws -> EchoServer {
        try EchoServer(tls: TLSServerContext(certificatePath: certificate.certificatePath, keyPath: certificate.keyPath))
    }

    static func tlsError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as WebSocketError {
            if case .transport(.certificateRejected(let host, let detail, let nameMismatch)) = error {
                return "certificate verify failed for \(host): \(detail)\(nameMismatch ? " [name]" : "")"
            }
            guard case .transport(.tls(let message)) = error else { return "unexpected: \(error)" }
            #expect(error.description == "TLS: \(message)")
            #expect(!message.contains("\n"))
            return message
        } catch {
            return "unexpected: \(error)"
        }
    }

    @Test func trustedThroughTheCABundle() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://localhost:\(server.port)/"))
        let options = TLSClientOptions(serverName: "localhost", caBundlePath: Self.certificate.certificatePath)
        let connection = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        try WebSocketIntegrationTests.exerciseEcho(connection)
        connection.close(deadline: .after(seconds: 5))
    }

    @Test func trustedThroughTheIPAddressInTheCertificate() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://127.0.0.1:\(server.port)/"))
        let options = TLSClientOptions(serverName: "127.0.0.1", caBundlePath: Self.certificate.certificatePath)
        let connection = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        defer { connection.close(deadline: .after(seconds: 5)) }
        try connection.send(text: Array("over tls".utf8), deadline: .after(seconds: 5))
        #expect(try connection.receive(deadline: .after(seconds: 5)) == .text(Array("over tls".utf8)))
    }

    @Test func trustedThroughThePinnedFingerprint() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let pin = try #require(TLSFingerprint.parseSHA256(Self.certificate.fingerprint))
        #expect(TLSFingerprint.format(pin) == Self.certificate.fingerprint.uppercased())
        let url = try #require(WebSocketURL("wss://127.0.0.1:\(server.port)/"))
        // The pin alone is enough: no CA bundle, and the name does not even match.
        let options = TLSClientOptions(serverName: "not-the-name.example", pinnedSHA256: pin)
        let connection = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        defer { connection.close(deadline: .after(seconds: 5)) }
        for size in [0, 126, 70 * 1024] {
            let payload = sampleBinary(size: size)
            try connection.send(binary: payload, deadline: .after(seconds: 5))
            #expect(try connection.receive(deadline: .after(seconds: 5)) == .binary(payload))
        }
        let stream = try #require(connection.stream as? TLSStream)
        #expect(stream.peerCertificateSHA256 == pin)
    }

    @Test func aWrongPinIsRefusedNamingBothFingerprints() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://localhost:\(server.port)/"))
        let wrong = [UInt8](repeating: 0xAB, count: 32)
        let message = Self.tlsError {
            _ = try WebSocketConnection.connect(url: url, tls: TLSClientOptions(serverName: "localhost", pinnedSHA256: wrong),
                                                deadline: .after(seconds: 10))
        }
        #expect(message == "certificate fingerprint mismatch for localhost: expected \(TLSFingerprint.format(wrong)), got \(Self.certificate.fingerprint.uppercased())")
    }

    @Test func anUntrustedCertificateFailsWithAClearError() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://localhost:\(server.port)/"))
        let message = Self.tlsError {
            _ = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        }
        #expect(message == "certificate verify failed for localhost: self-signed certificate: \"localhost\" signs itself and is not trusted")
    }

    @Test func aWrongHostNameFailsWithAClearError() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://127.0.0.1:\(server.port)/"))
        let options = TLSClientOptions(serverName: "wrong.example", caBundlePath: Self.certificate.certificatePath)
        let message = Self.tlsError {
            _ = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        }
        #expect(message == "certificate verify failed for wrong.example: hostname mismatch [name]", "\(message ?? "no error")")
    }

    @Test func plainWebSocketClientAgainstTheTLSPortFailsTheHandshake() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("ws://127.0.0.1:\(server.port)/"))
        #expect(throws: WebSocketError.self) {
            _ = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 5))
        }
    }

    @Test func aMissingCABundleOrKeyFileIsReported() {
        #expect {
            _ = try TLSServerContext(certificatePath: "/nonexistent/cert.pem", keyPath: "/nonexistent/key.pem")
        } throws: { error in
            (error as? TransportError)?.description.hasPrefix("TLS: cannot load the certificate /nonexistent/cert.pem") == true
        }
    }

    @Test func readerAndWriterThreadsShareOneTLSStream() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://localhost:\(server.port)/"))
        let options = TLSClientOptions(serverName: "localhost", caBundlePath: Self.certificate.certificatePath)
        let connection = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        defer { connection.close(deadline: .after(seconds: 5)) }
        let count = 300
        let writer = BackgroundThread { () -> Bool in
            for i in 0..<count {
                guard (try? connection.send(text: Array("message \(i)".utf8) + sampleText(size: i * 37), deadline: .after(seconds: 10))) != nil else { return false }
            }
            return true
        }
        for i in 0..<count {
            #expect(try connection.receive(deadline: .after(seconds: 10)) == .text(Array("message \(i)".utf8) + sampleText(size: i * 37)))
        }
        #expect(try writer.wait())
    }
}

extension TLSIntegrationTests {
    /// A poll loop that takes one message per wake-up and relies on `hasBufferedInput` for the rest:
    /// if TLS or WebSocket buffering hid a message from poll, the loop would stall.
    @Test func hasBufferedInputCoversWhatPollCannotSee() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://localhost:\(server.port)/"))
        let options = TLSClientOptions(serverName: "localhost", caBundlePath: Self.certificate.certificatePath)
        let connection = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        defer { connection.close(deadline: .after(seconds: 5)) }
        let count = 500
        for i in 0..<count { try connection.send(text: Array("m\(i)".utf8), deadline: .after(seconds: 10)) }
        var received = 0
        var stalled = false
        while received < count && !stalled {
            if !connection.hasBufferedInput {
                var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                stalled = poll(&entry, 1, 5000) == 0
            }
            if let message = try connection.receive(deadline: .now) {
                #expect(message == .text(Array("m\(received)".utf8)))
                received += 1
            }
        }
        #expect(!stalled && received == count)
    }
}
