import Glibc

/// A connected pair of local stream sockets: a stream that some other code feeds (a relay thread) but
/// that the connection polls and reads as it would a TCP socket.
@_spi(Engine) public enum SocketPair {
    /// Two connected `AF_UNIX` stream sockets, close-on-exec.
    @_spi(Engine) public static func make() throws(TransportError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .io("cannot make a socket pair: \(SystemError.last)")
        }
        return (fds[0], fds[1])
    }
}
