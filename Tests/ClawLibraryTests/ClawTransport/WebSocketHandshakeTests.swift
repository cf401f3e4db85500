import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport

/// The opening handshake in both roles, against scripted peers.
@Suite struct WebSocketHandshakeTests {
    static let url = WebSocketURL("ws://gateway.test:18789/ws")!

    static func clientError(answer: String) -> WebSocketError? {
        let stream = MemoryStream(input: Array(answer.utf8), endOfInput: true)
        do throws(WebSocketError) {
            _ = try WebSocketConnection.upgrade(stream: stream, url: url, deadline: .after(seconds: 1))
            return nil
        } catch {
            #expect(stream.isClosed)
            return error
        }
    }

    @Test func theClientRequestIsWhatRFC6455Asks() throws {
        let stream = MemoryStream(input: [], endOfInput: true)
        _ = try? WebSocketConnection.upgrade(stream: stream, url: Self.url, deadline: .after(seconds: 1))
        let request = String(decoding: stream.written, as: UTF8.self)
        let lines = request.components(separatedBy: "\r\n")
        #expect(lines.first == "GET /ws HTTP/1.1")
        #expect(lines.contains("Host: gateway.test:18789"))
        #expect(lines.contains("Upgrade: websocket") && lines.contains("Connection: Upgrade"))
        #expect(lines.contains("Sec-WebSocket-Version: 13"))
        let key = try #require(lines.first { $0.hasPrefix("Sec-WebSocket-Key: ") }?.dropFirst(19))
        #expect(Base64.decode(key)?.count == 16)
    }

    @Test func aNon101AnswerCarriesItsStatusLine() {
        #expect(Self.clientError(answer: "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n") == .upgradeRejected(httpStatus: 401, statusLine: "HTTP/1.1 401 Unauthorized"))
        #expect(Self.clientError(answer: "SSH-2.0-OpenSSH_9.2\r\n\r\n") == .handshakeFailed("not an HTTP response: SSH-2.0-OpenSSH_9.2"))
    }

    @Test func a101WithAWrongAcceptKeyIsRefused() {
        let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        #expect(Self.clientError(answer: answer) == .handshakeFailed("wrong or missing Sec-WebSocket-Accept"))
        let noUpgrade = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n\r\n"
        #expect(Self.clientError(answer: noUpgrade) == .handshakeFailed("the 101 response lacks \"Upgrade: websocket\""))
    }

    @Test func anOversizedOrTruncatedAnswerIsRefused() {
        let huge = "HTTP/1.1 101 Switching Protocols\r\nX-Filler: " + String(repeating: "a", count: 20_000) + "\r\n\r\n"
        #expect(Self.clientError(answer: huge) == .handshakeFailed("the server's upgrade response is larger than 16 KiB"))
        #expect(Self.clientError(answer: "HTTP/1.1 101 Switching") == .handshakeFailed("the connection closed before the server's upgrade response was complete"))
    }

    static let goodRequest = [
        "GET /gw?x=1 HTTP/1.1", "Host: 127.0.0.1:1", "Upgrade: WebSocket", "Connection: keep-alive, Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]

    static func serverResult(_ lines: [String]) -> (error: WebSocketError?, path: String?, answer: String) {
        let stream = MemoryStream(input: Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8), endOfInput: false)
        do throws(WebSocketError) {
            let (_, path) = try WebSocketConnection.accept(stream: stream, deadline: .after(seconds: 1))
            return (nil, path, String(decoding: stream.written, as: UTF8.self))
        } catch {
            return (error, nil, String(decoding: stream.written, as: UTF8.self))
        }
    }

    @Test func aValidUpgradeIsAnsweredWith101AndTheAcceptKey() {
        let result = Self.serverResult(Self.goodRequest)
        #expect(result.error == nil && result.path == "/gw?x=1")
        #expect(result.answer.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(result.answer.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
    }

    @Test(arguments: [
        (0, "POST /gw HTTP/1.1", "method POST is not GET"),
        (0, "GET /gw HTTP/1.0", "HTTP/1.0 is not HTTP/1.1"),
        (2, "Upgrade: h2c", "missing \"Upgrade: websocket\""),
        (3, "Connection: keep-alive", "missing \"Connection: Upgrade\""),
        (4, "Sec-WebSocket-Key: c2hvcnQ=", "Sec-WebSocket-Key is not base64 of 16 bytes"),
        (4, "Sec-WebSocket-Key: !!!", "Sec-WebSocket-Key is not base64 of 16 bytes"),
        (5, "Sec-WebSocket-Version: 8", "Sec-WebSocket-Version is not 13"),
    ])
    func aBadUpgradeIsAnsweredWith400(line: Int, replacement: String, reason: String) {
        var lines = Self.goodRequest
        lines[line] = replacement
        let result = Self.serverResult(lines)
        #expect(result.error == .handshakeFailed(reason))
        #expect(result.answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(result.answer.hasSuffix("Bad Request: \(reason)\n"))
    }

    /// A first line that cannot be HTTP (a TLS ClientHello, lower-case words) gets the bare 400 a Node
    /// HTTP server sends, as soon as its first bytes show it: the input never ends, nothing waits for more.
    @Test(arguments: [[0x16, 0x03, 0x01, 0x02, 0x00], Array("hello\r\n".utf8), Array(" GET / HTTP/1.1".utf8)] as [[UInt8]])
    func aNonHTTPFirstLineIsAnsweredWithABare400(_ input: [UInt8]) {
        let stream = MemoryStream(input: input, endOfInput: false, chunkSize: 1)
        do throws(WebSocketError) {
            _ = try WebSocketConnection.accept(stream: stream, deadline: .after(seconds: 5))
            Issue.record("accepted")
        } catch {
            #expect(error == .handshakeFailed("the client's upgrade request is not HTTP"))
        }
        #expect(String(decoding: stream.written, as: UTF8.self) == "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
        #expect(stream.isClosed)
    }
}
