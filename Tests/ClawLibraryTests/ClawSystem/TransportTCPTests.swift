import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem

/// TCP streams and listeners over real loopback sockets.
@Suite struct TransportTCPTests {
    static let hasIPv6Loopback: Bool = (try? TCPListener(host: "::1", port: 0)).map { $0.close(); return true } ?? false

    /// A connected pair: (client side, server side).
    static func pair(host: String = "127.0.0.1") throws -> (TCPStream, TCPStream, TCPListener) {
        let listener = try TCPListener(host: host, port: 0)
        let client = try TCPStream.connect(host: host, port: listener.port, deadline: .after(seconds: 5))
        guard let server = try listener.accept(deadline: .after(seconds: 5)) else { throw TransportError.timedOut("accept") }
        return (client, server, listener)
    }

    @Test func listenerOnPortZeroReportsTheRealPort() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect(listener.port > 0 && listener.port < 65536)
        #expect(try listener.accept(deadline: .now) == nil)
    }

    @Test func bytesFlowBothWaysAndEndOfStreamReadsZero() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.close(); client.close(); server.close() }
        #expect(server.isLoopbackPeer)
        let message = Array("ping over tcp".utf8)
        try message.withUnsafeBytes { try client.write($0, deadline: .after(seconds: 5)) }
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [UInt8] = []
        while received.count < message.count {
            let n = try buffer.withUnsafeMutableBytes { try server.read(into: $0, deadline: .after(seconds: 5)) }
            #expect(n > 0)
            received += buffer[..<n]
        }
        #expect(received == message)
        client.close()
        let n = try buffer.withUnsafeMutableBytes { try server.read(into: $0, deadline: .after(seconds: 5)) }
        #expect(n == 0)
    }

    @Test func readWithNowTimesOutWhenNothingIsThere() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.close(); client.close(); server.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(throws: TransportError.timedOut("waiting for data")) {
            _ = try buffer.withUnsafeMutableBytes { try client.read(into: $0, deadline: .now) }
        }
        #expect(throws: TransportError.timedOut("waiting for data")) {
            _ = try buffer.withUnsafeMutableBytes { try client.read(into: $0, deadline: .after(seconds: 0.05)) }
        }
    }

    @Test func operationsAfterCloseFailWithClosed() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.close(); server.close() }
        client.close()
        client.close()
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(throws: TransportError.closed("the stream was closed")) {
            _ = try buffer.withUnsafeMutableBytes { try client.read(into: $0, deadline: .now) }
        }
    }

    @Test func closeWakesAReaderBlockedInAnotherThread() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.close(); server.close() }
        let done = BackgroundThread { () -> TransportError? in
            var buffer = [UInt8](repeating: 0, count: 16)
            do { _ = try buffer.withUnsafeMutableBytes { try client.read(into: $0, deadline: .after(seconds: 20)) } } catch { return error as? TransportError }
            return nil
        }
        usleep(50_000)
        client.close()
        let error = try done.wait()
        #expect(error == .closed("the stream was closed"))
    }

    @Test func writingToAResetPeerFailsWithClosed() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.close(); client.close() }
        server.close()
        let chunk = [UInt8](repeating: 1, count: 65536)
        #expect {
            for _ in 0..<200 { try chunk.withUnsafeBytes { try client.write($0, deadline: .after(seconds: 5)) } }
        } throws: { error in
            guard case TransportError.closed = error else { return false }
            return true
        }
    }

    @Test func connectingToAClosedPortIsRefused() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        #expect {
            _ = try TCPStream.connect(host: "127.0.0.1", port: port, deadline: .after(seconds: 5))
        } throws: { error in
            // The socket's errno itself, not the C library's words for it.
            guard case TransportError.connect(host: "127.0.0.1", port: port, let systemError) = error else { return false }
            return systemError.code == ECONNREFUSED && systemError.connectErrorName == "ECONNREFUSED"
                && (error as? TransportError)?.description.contains("cannot connect to 127.0.0.1") == true
        }
    }

    @Test(.enabled(if: hasIPv6Loopback))
    func ipv6LoopbackConnects() throws {
        let (client, server, listener) = try Self.pair(host: "::1")
        defer { listener.close(); client.close(); server.close() }
        #expect(server.remoteAddress?.host == "::1")
    }
}

/// Runs a body on its own thread at once (not on the cooperative pool, which blocking tests occupy).
final class BackgroundThread<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: T?

    init(_ body: @escaping @Sendable () -> T) {
        Thread { [self] in
            result = body()
            done.signal()
        }.start()
    }

    /// The body's result; throws if it takes more than `seconds`.
    func wait(seconds: Double = 30) throws -> T {
        guard done.wait(timeout: .now() + seconds) == .success, let result else {
            throw TransportError.timedOut("waiting for a test thread")
        }
        return result
    }
}

extension TransportTCPTests {
    @Test func listeningOnABusyPortFailsWithOneLine() throws {
        let first = try TCPListener(host: "127.0.0.1", port: 0)
        defer { first.close() }
        #expect {
            _ = try TCPListener(host: "127.0.0.1", port: first.port)
        } throws: { error in
            let text = (error as? TransportError)?.description ?? ""
            return text.hasPrefix("cannot listen on 127.0.0.1:\(first.port): ") && !text.contains("\n")
        }
    }
}
