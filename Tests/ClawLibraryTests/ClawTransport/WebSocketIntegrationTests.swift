import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// The client role against the project's own server role over real loopback sockets (ws://).
@Suite struct WebSocketIntegrationTests {
    static let sizes = [0, 125, 126, 65535, 65536, 70 * 1024, 10 * 1024 * 1024]

    /// Sends each size as text and binary, whole and in three fragments, and checks the echo.
    static func exerciseEcho(_ connection: WebSocketConnection) throws {
        let deadline = Deadline.after(seconds: 60)
        for size in sizes {
            for isText in [true, false] {
                let payload = isText ? sampleText(size: size) : sampleBinary(size: size)
                let expected: WebSocketMessage = isText ? .text(payload) : .binary(payload)
                // Whole.
                if isText { try connection.send(text: payload, deadline: deadline) } else { try connection.send(binary: payload, deadline: deadline) }
                #expect(try connection.receive(deadline: deadline) == expected, "whole \(isText ? "text" : "binary") of \(size) bytes")
                // Fragmented: three pieces, cut anywhere (inside UTF-8 characters too).
                let cuts = [0, size / 3 + 1, 2 * size / 3 + 1, size].map { min($0, size) }
                for i in 0..<3 {
                    let opcode: WebSocketOpcode = i == 0 ? (isText ? .text : .binary) : .continuation
                    try connection.send(frame: WebSocketFrame(fin: i == 2, opcode: opcode, payload: Array(payload[cuts[i]..<cuts[i + 1]])), deadline: deadline)
                }
                #expect(try connection.receive(deadline: deadline) == expected, "fragmented \(isText ? "text" : "binary") of \(size) bytes")
            }
        }
    }

    @Test(.notUnderQEMU("10 MiB each way in fragments, in a debug build: past the 60 s deadline at emulation's tenfold slowdown"))
    func echoOverPlainTCPForEverySize() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("ws://127.0.0.1:\(server.port)/ws?x=1"))
        let connection = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        try Self.exerciseEcho(connection)
        try connection.ping(Array("are you there".utf8), deadline: .after(seconds: 5))
        try connection.send(text: Array("after ping".utf8), deadline: .after(seconds: 5))
        #expect(try connection.receive(deadline: .after(seconds: 5)) == .text(Array("after ping".utf8)))
        connection.close(code: 1000, reason: "done", deadline: .after(seconds: 5))
        #expect(throws: WebSocketError.self) { try connection.send(text: [0x41], deadline: .now) }
    }

    @Test func pollLoopStyleReceivingReturnsNilWhenIdle() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("ws://localhost:\(server.port)"))
        let connection = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        defer { connection.close(deadline: .after(seconds: 2)) }
        #expect(try connection.receive(deadline: .now) == nil)
        for i in 0..<50 { try connection.send(text: Array("m\(i)".utf8), deadline: .after(seconds: 5)) }
        var received: [WebSocketMessage] = []
        while received.count < 50 {
            var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 5000)
            while let message = try connection.receive(deadline: .now) { received.append(message) }
        }
        #expect(received == (0..<50).map { .text(Array("m\($0)".utf8)) })
        #expect(!connection.hasBufferedInput)
    }

    @Test func serverCloseIsReportedWithCodeAndReason() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let serverDone = BackgroundThread { () -> WebSocketError? in
            do {
                guard let tcp = try listener.accept(deadline: .after(seconds: 10)) else { return nil }
                let (connection, path) = try WebSocketConnection.accept(stream: tcp, deadline: .after(seconds: 10))
                guard path == "/gateway" else { return .handshakeFailed(path) }
                connection.close(code: 1012, reason: "service restart", deadline: .after(seconds: 5))
                return nil
            } catch {
                return error as? WebSocketError
            }
        }
        let url = try #require(WebSocketURL("ws://127.0.0.1:\(listener.port)/gateway"))
        let connection = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        #expect(throws: WebSocketError.closed(code: 1012, reason: "service restart")) {
            _ = try connection.receive(deadline: .after(seconds: 10))
        }
        let serverError = try serverDone.wait()
        #expect(serverError == nil)
    }

    @Test func nonUpgradeAnswerBecomesUpgradeRejectedWithTheStatusLine() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let server = BackgroundThread { () -> Bool in
            guard let tcp = try? listener.accept(deadline: .after(seconds: 10)) else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = try? buffer.withUnsafeMutableBytes { try tcp.read(into: $0, deadline: .after(seconds: 5)) }
            let answer = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)
            try? answer.withUnsafeBytes { try tcp.write($0, deadline: .after(seconds: 5)) }
            tcp.close()
            return true
        }
        let url = try #require(WebSocketURL("ws://127.0.0.1:\(listener.port)/"))
        #expect(throws: WebSocketError.upgradeRejected(httpStatus: 404, statusLine: "HTTP/1.1 404 Not Found")) {
            _ = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        }
        #expect(try server.wait())
    }

    @Test func badUpgradeRequestIsAnsweredWith400() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let server = BackgroundThread { () -> WebSocketError? in
            do {
                guard let tcp = try listener.accept(deadline: .after(seconds: 10)) else { return nil }
                _ = try WebSocketConnection.accept(stream: tcp, deadline: .after(seconds: 10))
                return nil
            } catch {
                return error as? WebSocketError
            }
        }
        let client = try TCPStream.connect(host: "127.0.0.1", port: listener.port, deadline: .after(seconds: 5))
        defer { client.close() }
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: c2hvcnQ=\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8)
        try request.withUnsafeBytes { try client.write($0, deadline: .after(seconds: 5)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try client.read(into: $0, deadline: .after(seconds: 5)) }
            if n == 0 { break }
            answer += buffer[..<n]
        }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(try server.wait() == .handshakeFailed("Sec-WebSocket-Key is not base64 of 16 bytes"))
    }

    @Test(.enabled(if: TransportTCPTests.hasIPv6Loopback))
    func ipv6LiteralURLConnects() throws {
        let server = try EchoServer(host: "::1")
        defer { server.stop() }
        let url = try #require(WebSocketURL("ws://[::1]:\(server.port)/"))
        let connection = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        defer { connection.close(deadline: .after(seconds: 2)) }
        try connection.send(text: Array("v6".utf8), deadline: .after(seconds: 5))
        #expect(try connection.receive(deadline: .after(seconds: 5)) == .text(Array("v6".utf8)))
    }
}


extension WebSocketIntegrationTests {
    /// The simulator's pattern: one thread blocked in receive while another closes the connection.
    @Test func closeFromAnotherThreadEndsABlockedReceiveWithThePeersCloseFrame() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let url = try #require(WebSocketURL("ws://127.0.0.1:\(server.port)/"))
        let connection = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 10))
        let reader = BackgroundThread { () -> WebSocketError? in
            do { _ = try connection.receive(deadline: .after(seconds: 20)) } catch { return error as? WebSocketError }
            return nil
        }
        usleep(50_000)
        connection.close(code: 4000, reason: "tick timeout", deadline: .after(seconds: 5))
        #expect(try reader.wait() == .closed(code: 4000, reason: "tick timeout"))
        #expect(throws: WebSocketError.closed(code: 4000, reason: "tick timeout")) {
            try connection.send(text: [0x41], deadline: .now)
        }
    }

    @Test func aTLSHandshakeThatNeverAnswersTimesOut() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let silent = BackgroundThread { () -> TCPStream? in try? listener.accept(deadline: .after(seconds: 10)) }
        let url = try #require(WebSocketURL("wss://127.0.0.1:\(listener.port)/"))
        #expect(throws: WebSocketError.transport(.timedOut("waiting for the TLS handshake"))) {
            _ = try WebSocketConnection.connect(url: url, deadline: .after(seconds: 0.3))
        }
        try silent.wait()?.close()
    }
}
