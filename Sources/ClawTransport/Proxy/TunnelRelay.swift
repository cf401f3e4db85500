@_spi(Engine) import ClawSystem

/// Carries a tunnel that lives inside another stream (an `https://` proxy's TLS session) to one end of a
/// socket pair, and hands out the other end: a plain socket the connection polls, and TLS to the gateway
/// runs over, exactly as over TCP. Two threads copy, one each way; either side closing ends both.
enum TunnelRelay {
    static func start(carrying outer: ByteStream) throws(TransportError) -> TCPStream {
        let (near, far) = try SocketPair.make()
        let relayed = TCPStream(acceptedDescriptor: far)
        let handed = TCPStream(acceptedDescriptor: near)
        let pair = Pair(outer: outer, relayed: relayed)
        do throws(SystemError) {
            _ = try JoinableThread(name: "claw-proxy-up") { pair.copy(from: pair.relayed, to: pair.outer) }
            _ = try JoinableThread(name: "claw-proxy-down") { pair.copy(from: pair.outer, to: pair.relayed) }
        } catch {
            pair.close()
            handed.close()
            throw .io("cannot start the proxy tunnel's relay: \(error)")
        }
        return handed
    }

    private final class Pair: @unchecked Sendable {
        let outer: ByteStream
        let relayed: TCPStream

        init(outer: ByteStream, relayed: TCPStream) {
            self.outer = outer
            self.relayed = relayed
        }

        /// Copies until either side ends or fails, then closes both (which ends the other copy too).
        func copy(from source: ByteStream, to destination: ByteStream) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
            defer { buffer.deallocate() }
            do throws(TransportError) {
                while true {
                    let count = try source.read(into: buffer, deadline: .never)
                    if count == 0 { break }
                    try destination.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]), deadline: .never)
                }
            } catch {
                // Either side failing ends the tunnel, as its end of stream does.
            }
            close()
        }

        func close() {
            outer.close()
            relayed.close()
        }
    }
}
