import Glibc
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// The relay of an `https://` proxy's tunnel: bytes cross both ways, and closing the end the connection
/// holds ends both copying threads and joins them before `close()` returns.
@Suite struct TunnelRelayTests {
    /// The relay's threads alive in this process (`claw-proxy-up`, `claw-proxy-down`).
    static func relayThreads() -> Int {
        guard let dir = opendir("/proc/self/task") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard task.first != ".", let name = try? FileSystem.readFile("/proc/self/task/\(task)/comm") else { continue }
            if String(decoding: name, as: UTF8.self).hasPrefix("claw-proxy") { count += 1 }
        }
        return count
    }

    static func send(_ text: String, to stream: TCPStream) throws {
        try Array(text.utf8).withUnsafeBytes { try stream.write($0, deadline: .after(seconds: 5)) }
    }

    static func receive(from stream: TCPStream) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0, deadline: .after(seconds: 5)) }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    @Test func closingTheHandedEndJoinsBothCopies() throws {
        let (inner, outerEnd) = try SocketPair.make()
        let proxy = TCPStream(acceptedDescriptor: outerEnd)  // the proxy's side of the outer stream
        defer { proxy.close() }
        let handed = try TunnelRelay.start(carrying: TCPStream(acceptedDescriptor: inner))
        try Self.send("up", to: handed)
        #expect(try Self.receive(from: proxy) == "up")
        try Self.send("down", to: proxy)
        #expect(try Self.receive(from: handed) == "down")
        #expect(Self.relayThreads() == 2)
        handed.close()
        #expect(Self.relayThreads() == 0, "both copies ended and joined by the close")
        #expect(try Self.receive(from: proxy) == "", "the proxy's side sees the end of the tunnel")
    }
}
