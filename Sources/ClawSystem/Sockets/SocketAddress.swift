import Glibc

/// Name resolution and address formatting shared by `TCPStream` and `TCPListener`.
@_spi(Engine) public enum SocketAddress {
    /// Whether `host` is an IPv4 or IPv6 address rather than a name (inet_pton(3)).
    @_spi(Engine) public static func isNumeric(_ host: String) -> Bool {
        var storage = in6_addr()
        return inet_pton(AF_INET, host, &storage) == 1 || inet_pton(AF_INET6, host, &storage) == 1
    }

    /// The first address `host` resolves to, as its 4 (IPv4) or 16 (IPv6) bytes in network order: what
    /// a SOCKS5 request carries when the client resolves the name itself.
    @_spi(Engine) public static func firstAddressBytes(host: String, port: Int) throws(TransportError) -> [UInt8] {
        for (family, address) in try resolve(host: host, port: port, passive: false) {
            if family == AF_INET, address.count >= 8 { return Array(address[4..<8]) }
            if family == AF_INET6, address.count >= 24 { return Array(address[8..<24]) }
        }
        throw .resolve(host: host, reason: "no IPv4 or IPv6 address")
    }

    /// `getaddrinfo` for a TCP endpoint; addresses in the resolver's order (IPv6 and IPv4).
    @_spi(Engine) public static func resolve(host: String, port: Int, passive: Bool) throws(TransportError) -> [(family: Int32, address: [UInt8])] {
        guard (0...65535).contains(port) else { throw .resolve(host: host, reason: "port \(port) is out of range") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? systemErrorText(errno) : String(cString: gai_strerror(status))
            throw .resolve(host: host, reason: reason)
        }
        defer { freeaddrinfo(list) }
        var result: [(family: Int32, address: [UInt8])] = []
        var cursor = list
        while let entry = cursor {
            if let sa = entry.pointee.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: sa, count: Int(entry.pointee.ai_addrlen))
                result.append((entry.pointee.ai_family, Array(bytes)))
            }
            cursor = entry.pointee.ai_next
        }
        if result.isEmpty { throw .resolve(host: host, reason: "no addresses") }
        return result
    }

    /// Numeric host and port of a `sockaddr`, e.g. ("::1", 8080).
    static func describe(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> (host: String, port: Int)? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                                 NI_NUMERICHOST | NI_NUMERICSERV)
        guard status == 0 else { return nil }
        let hostText = String(decoding: host.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let serviceText = String(decoding: service.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (hostText, Int(serviceText) ?? 0)
    }

    /// The local (`peer == false`) or remote address of a connected socket.
    static func of(fd: Int32, peer: Bool) -> (host: String, port: Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                let status = peer ? getpeername(fd, sa, &length) : getsockname(fd, sa, &length)
                return status == 0 ? describe(sa, length: length) : nil
            }
        }
    }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }
}
