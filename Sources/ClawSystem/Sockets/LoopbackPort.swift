import Glibc

/// TCP ports on 127.0.0.1: whether one is free to listen on now, and one the kernel picks.
@_spi(Engine) public enum LoopbackPort {
    /// Binds and listens on `127.0.0.1:port` (with `SO_REUSEADDR`, as a server would), then closes
    /// the socket again; the error says why not (`EADDRINUSE`, `EACCES`, …).
    @_spi(Engine) public static func checkAvailable(_ port: Int) throws(SystemError) {
        let fd = try listen(port: port)
        _ = close(fd)
    }

    /// A port that was free a moment ago: the kernel's choice for `127.0.0.1:0`.
    @_spi(Engine) public static func ephemeral() throws(SystemError) -> Int {
        let fd = try listen(port: 0)
        defer { _ = close(fd) }
        guard let local = SocketAddress.of(fd: fd, peer: false) else { throw SystemError(code: EINVAL) }
        return local.port
    }

    /// Whether `code` means the port is someone else's or out of reach (the caller may pick another).
    @_spi(Engine) public static func isUnavailable(_ error: SystemError) -> Bool {
        error.code == EADDRINUSE || error.code == EACCES || error.code == EPERM
    }

    private static func listen(port: Int) throws(SystemError) -> Int32 {
        guard (0...65535).contains(port) else { throw SystemError(code: EINVAL) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError.last }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 1) == 0 else {
            let error = SystemError.last
            _ = close(fd)
            throw error
        }
        return fd
    }
}
