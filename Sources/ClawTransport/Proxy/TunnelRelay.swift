@_spi(Engine) import ClawSystem

/// Carries a tunnel that lives inside another stream (an `https://` proxy's TLS session) to one end of a
/// socket pair, and hands out the other end: a plain socket the connection polls, and TLS to the gateway
/// runs over, exactly as over TCP. Two threads copy, one each way; either side closing ends both, and
/// closing the handed end joins them, so that no copy outlives its connection.
enum TunnelRelay {
    static func start(carrying outer: ByteStream) throws(TransportError) -> TCPStream {
        let (near, far) = try SocketPair.make()
        let pair = Pair(outer: outer, relayed: TCPStream(acceptedDescriptor: far))
        var copies: [JoinableThread] = []
        do throws(SystemError) {
            copies.append(try JoinableThread(name: "claw-proxy-up") { pair.copy(from: pair.relayed, to: pair.outer) })
            copies.append(try JoinableThread(name: "claw-proxy-down") { pair.copy(from: pair.outer, to: pair.relayed) })
        } catch {
            pair.close()
            for copy in copies { copy.join() }
            TCPStream(acceptedDescriptor: near).close()
            throw .io("cannot start the proxy tunnel's relay: \(error)")
        }
        // Its close is the relayed end's end of stream: the up copy stops and closes both, then the other.
        let started = copies
        return TCPStream(acceptedDescriptor: near, afterClose: { for copy in started { copy.join() } })
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
