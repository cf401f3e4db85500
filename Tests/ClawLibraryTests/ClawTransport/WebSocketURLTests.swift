import Testing
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) import ClawSystem
@_spi(Engine) @testable import ClawTransport

@Suite struct WebSocketURLTests {
    @Test func parsesHostsPortsAndPaths() throws {
        let plain = try #require(WebSocketURL("ws://example.com"))
        #expect(!plain.isSecure && plain.host == "example.com" && plain.port == 80 && plain.path == "/")
        let secure = try #require(WebSocketURL("WSS://Gateway.local:18789/ws?token=x"))
        #expect(secure.isSecure && secure.host == "Gateway.local" && secure.port == 18789 && secure.path == "/ws?token=x")
        let v6 = try #require(WebSocketURL("ws://[::1]:8080"))
        #expect(v6.host == "::1" && v6.port == 8080 && v6.hostHeader == "[::1]:8080")
        #expect(WebSocketURL("wss://h?q")?.path == "/?q")
    }

    @Test func descriptionAndHostHeaderOmitTheDefaultPort() {
        #expect(WebSocketURL("wss://h:443/x")?.description == "wss://h/x")
        #expect(WebSocketURL("ws://h:443/x")?.description == "ws://h:443/x")
        #expect(WebSocketURL("ws://127.0.0.1:80")?.hostHeader == "127.0.0.1")
        #expect(WebSocketURL("ws://[::1]")?.description == "ws://[::1]/")
    }

    @Test(arguments: ["http://h", "ws:/h", "ws://", "ws://:80", "ws://h:0", "ws://h:65536", "ws://h:8x", "ws://u@h",
                      "ws://h/#frag", "ws://h/a b", "ws://[::1", "ws://::1", "ws://[zz]", "wss://h:1:2"])
    func rejectsMalformedURLs(text: String) {
        #expect(WebSocketURL(text) == nil)
    }

    @Test func handshakeAcceptValueMatchesRFC6455() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let key = WebSocketHandshake.makeKey()
        #expect(Base64.decode(key)?.count == 16 && key != WebSocketHandshake.makeKey())
    }

    @Test func clientRequestHasTheRequiredHeadersAndNoOrigin() throws {
        let url = try #require(WebSocketURL("ws://[::1]:9000/gw"))
        let request = String(decoding: WebSocketHandshake.clientRequest(url: url, key: "k"), as: UTF8.self)
        #expect(request.hasPrefix("GET /gw HTTP/1.1\r\nHost: [::1]:9000\r\n"))
        #expect(request.contains("Sec-WebSocket-Version: 13\r\n") && request.contains("Upgrade: websocket\r\n"))
        #expect(!request.lowercased().contains("origin"))
        #expect(request.hasSuffix("\r\n\r\n"))
    }

    @Test func errorDescriptionsAreOneLine() {
        let errors: [WebSocketError] = [.handshakeFailed("HTTP/1.1 404 Not Found"), .protocolViolation(code: 1002, reason: "x"),
                                        .closed(code: nil, reason: ""), .closed(code: 1000, reason: ""), .transport(.timedOut("x"))]
        for error in errors { #expect(!error.description.isEmpty && !error.description.contains("\n")) }
        #expect(WebSocketError.handshakeFailed("HTTP/1.1 404 Not Found").description == "WebSocket handshake failed: HTTP/1.1 404 Not Found")
    }
}
