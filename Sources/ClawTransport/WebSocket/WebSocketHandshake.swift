@_spi(Engine) import ClawCrypto
/// The head of an HTTP/1.1 request or response: the start line and the header fields in order.
@_spi(Engine) public struct HTTPHead: Sendable {
    @_spi(Engine) public var startLine: String
    @_spi(Engine) public var headers: [(name: String, value: String)]

    /// The first value of a header, compared case-insensitively.
    @_spi(Engine) public func value(of name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// True when a comma-separated header (e.g. `Connection`) lists `token`, case-insensitively.
    @_spi(Engine) public func lists(_ token: String, in name: String) -> Bool {
        let wanted = name.lowercased(), lowerToken = token.lowercased()
        for header in headers where header.name.lowercased() == wanted {
            for part in header.value.split(separator: ",") where HTTPHead.trim(part).lowercased() == lowerToken { return true }
        }
        return false
    }

    static func trim(_ text: Substring) -> String {
        var slice = text[...]
        while let c = slice.first, c == " " || c == "\t" { slice = slice.dropFirst() }
        while let c = slice.last, c == " " || c == "\t" { slice = slice.dropLast() }
        return String(slice)
    }

    /// Parses the bytes before the blank line; `nil` when they are not an HTTP head.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPHead? {
        var lines: [String] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                var end = i
                if end > start && bytes[end - 1] == 0x0D { end -= 1 }
                lines.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count {
            lines.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let startLine = lines.first, !startLine.isEmpty else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            // Obsolete line folding and lines without a colon are not accepted.
            guard let first = line.first, first != " ", first != "\t", let colon = line.firstIndex(of: ":") else { return nil }
            let name = String(line[..<colon])
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else { return nil }
            headers.append((name, trim(line[line.index(after: colon)...])))
        }
        return HTTPHead(startLine: startLine, headers: headers)
    }
}

/// The RFC 6455 §4 opening handshake for both roles.
enum WebSocketHandshake {
    /// Larger heads are refused: they are not a WebSocket peer talking.
    static let maxHeadSize = 16 * 1024
    private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A fresh `Sec-WebSocket-Key`: base64 of 16 CSPRNG bytes.
    static func makeKey() -> String { Base64.encode(SecureRandom.bytes(16)) }

    /// `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)).
    static func acceptValue(forKey key: String) -> String {
        Base64.encode(Digest.sha1(Array((key + acceptGUID).utf8)))
    }

    static func clientRequest(url: WebSocketURL, key: String, headers: [UpgradeHeader] = []) -> [UInt8] {
        var head = "GET \(url.path) HTTP/1.1\r\n"
            + "Host: \(url.hostHeader)\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    /// Offset just past the `\r\n\r\n` ending a head, searching from `from`.
    static func headEnd(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        var i = max(0, from)
        while i + 3 < bytes.count {
            if bytes[i] == 0x0D && bytes[i + 1] == 0x0A && bytes[i + 2] == 0x0D && bytes[i + 3] == 0x0A { return i + 4 }
            i += 1
        }
        return nil
    }

    /// The status line made safe to show: printable ASCII, at most 200 characters.
    static func printable(_ line: String) -> String {
        let bytes = line.utf8.prefix(200).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks the server's answer to our upgrade request.
    static func validateResponse(_ head: HTTPHead, key: String) throws(WebSocketError) {
        let status = printable(head.startLine)
        let parts = head.startLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, Int(parts[1]) != nil else {
            throw .handshakeFailed("not an HTTP response: \(status)")
        }
        guard parts[1] == "101" else {
            // Redirects are never followed: edge-auth headers must not reach another host.
            throw .upgradeRejected(httpStatus: Int(parts[1]) ?? 0, statusLine: status)
        }
        guard head.value(of: "Upgrade")?.lowercased() == "websocket" else {
            throw .handshakeFailed("the 101 response lacks \"Upgrade: websocket\"")
        }
        guard head.lists("upgrade", in: "Connection") else {
            throw .handshakeFailed("the 101 response lacks \"Connection: Upgrade\"")
        }
        guard head.value(of: "Sec-WebSocket-Accept") == acceptValue(forKey: key) else {
            throw .handshakeFailed("wrong or missing Sec-WebSocket-Accept")
        }
        if let extensions = head.value(of: "Sec-WebSocket-Extensions"), !extensions.isEmpty {
            throw .handshakeFailed("the server chose an extension that was not offered: \(printable(extensions))")
        }
    }

    /// Checks an upgrade request; returns the request target and the key, or why it is refused.
    static func validateRequest(_ head: HTTPHead) -> Result<(path: String, key: String), WebSocketError> {
        let parts = head.startLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.handshakeFailed("malformed request line")) }
        guard parts[0] == "GET" else { return .failure(.handshakeFailed("method \(printable(String(parts[0]))) is not GET")) }
        guard parts[2] == "HTTP/1.1" else { return .failure(.handshakeFailed("\(printable(String(parts[2]))) is not HTTP/1.1")) }
        let path = String(parts[1])
        guard path.hasPrefix("/") else { return .failure(.handshakeFailed("request target is not a path")) }
        guard head.value(of: "Upgrade")?.lowercased() == "websocket" else {
            return .failure(.handshakeFailed("missing \"Upgrade: websocket\""))
        }
        guard head.lists("upgrade", in: "Connection") else {
            return .failure(.handshakeFailed("missing \"Connection: Upgrade\""))
        }
        guard let key = head.value(of: "Sec-WebSocket-Key"), let raw = Base64.decode(key), raw.count == 16,
              key.utf8.count == 24, !key.contains("-"), !key.contains("_") else {
            return .failure(.handshakeFailed("Sec-WebSocket-Key is not base64 of 16 bytes"))
        }
        guard head.value(of: "Sec-WebSocket-Version") == "13" else {
            return .failure(.handshakeFailed("Sec-WebSocket-Version is not 13"))
        }
        return .success((path, key))
    }

    static func switchingProtocols(key: String) -> [UInt8] {
        Array(("HTTP/1.1 101 Switching Protocols\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(acceptValue(forKey: key))\r\n\r\n").utf8)
    }

    /// Whether the first bytes a client sent can still begin a request line: a method (capital letters
    /// or `-`, as Node's parser takes them) and a space. Anything else fails at its first byte there.
    static func couldBeginRequest(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: " ") { return offset > 0 }
            guard offset < 24, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-") else { return false }
        }
        return true
    }

    /// What a Node HTTP server (the official gateway's) answers to bytes that are not HTTP, before closing.
    static let notHTTP = Array("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n".utf8)

    static func badRequest(_ reason: String) -> [UInt8] {
        let body = "Bad Request: \(reason)\n"
        return Array(("HTTP/1.1 400 Bad Request\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
            + "Connection: close\r\n\r\n" + body).utf8)
    }
}
