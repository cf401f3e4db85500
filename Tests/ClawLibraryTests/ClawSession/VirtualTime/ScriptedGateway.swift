import Foundation
import Glibc
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) import ClawSession

/// A gateway on a real loopback listener that answers each connect as its script says, one answer per
/// accepted connection, on a thread of its own (the handshake runs in real time: milliseconds). What
/// the gateway does afterwards is the test's, run on the driver's thread from the virtual clock
/// (`VirtualClock.at`) through `connection(_:)`, so that it happens at a known virtual moment.
final class ScriptedGateway: @unchecked Sendable {
    enum Answer {
        /// hello-ok with this tick interval, speaking `protocol` (3 or 4).
        case hello(tickMs: Int, protocol: Int = 3)
        /// The pairing refusal; `held`: kept open for the decision (`waitForResolution`).
        case pairingRequired(requestId: String, held: Bool)
        /// The upgrade answered 503, the gateway's cap of unauthenticated sockets.
        case tooManyUnauthenticated
    }

    private let listener: TCPListener
    private let lock = NSLock()
    private var answers: [Answer]
    /// Each answered connection; nil for one refused before the upgrade.
    private var served: [WebSocketConnection?] = []
    private var thread: JoinableThread?
    /// What the client sent on each answered connection, by index, and the threads that read it.
    private var heard: [Int: [UInt8]] = [:]
    private var listeners: [JoinableThread?] = []

    var url: WebSocketURL { WebSocketURL(isSecure: false, host: "127.0.0.1", port: listener.port) }

    init(_ answers: [Answer]) throws {
        listener = try TCPListener(host: "127.0.0.1", port: 0)
        self.answers = answers
        thread = try JoinableThread(name: "scripted-gw") { [self] in serve() }
    }

    /// Stops listening and joins the thread; closes every connection.
    func stop() {
        lock.withLock { answers = [] }
        // Wakes the accept: a connect that the emptied script closes at once.
        if let wake = try? TCPStream.connect(host: "127.0.0.1", port: listener.port, deadline: .after(seconds: 5)) { wake.close() }
        thread?.join()
        listener.close()
        for connection in lock.withLock({ served.compactMap { $0 } }) { shutdown(connection.fileDescriptor, Int32(SHUT_RDWR)) }
        for thread in lock.withLock({ listeners }) { thread?.join() }
    }

    /// How many connections were answered.
    var connections: Int { lock.withLock { served.count } }

    /// The `index`th connection answered with a socket left open (hello-ok or a held pairing).
    func connection(_ index: Int) -> WebSocketConnection? { lock.withLock { served[index] } }

    /// Sends an event (numbered `seq`, if given) on the `index`th connection.
    func send(event: String, payload: JSONValue = [:], seq: Int? = nil, on index: Int) {
        var frame: JSONObject = ["type": "event", "event": .string(event), "payload": payload]
        if let seq { frame["seq"] = JSONValue(seq) }
        try? connection(index)?.send(text: Array(JSONValue.object(frame).compactText.utf8), deadline: .after(seconds: 5))
    }

    /// The control frames the client sent on the `index`th connection (its pings, its close), once the
    /// connection has ended: the client closed it, or the gateway stopped.
    func controlFrames(on index: Int) -> [WebSocketOpcode] {
        lock.withLock { listeners[index] }?.join()
        return FrameBytes.decodeAll(lock.withLock { heard[index] ?? [] }, receiver: .server).compactMap {
            if case .control(let opcode, _) = $0 { return opcode }
            return nil
        }
    }

    /// Ends the `index`th connection as a gateway going away does: a close frame with `code`, then the
    /// socket shut, without waiting for the client's answer (the client's thread runs this).
    func drop(_ index: Int, code: UInt16) {
        guard let descriptor = connection(index)?.fileDescriptor else { return }
        let frame = FrameBytes.from(.server, opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
        _ = frame.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Reads what the client sends on an answered connection (nothing is answered but its close, at
    /// once, so that its close never waits), until either side shuts it.
    private func listen(_ index: Int, _ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            // The accepted socket does not block: wait for its input first.
            guard (try? Poll.wait(fd: descriptor, events: Poll.readable, deadline: .never)) != nil else { return }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { return }
            let bytes = lock.withLock { heard[index, default: []] += buffer[..<count]; return heard[index]! }
            if FrameBytes.closeCode(in: bytes, receiver: .server) != nil {
                let reply = FrameBytes.from(.server, opcode: 0x8, payload: [0x03, 0xE8])
                _ = reply.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                shutdown(descriptor, Int32(SHUT_RDWR))
                return
            }
        }
    }

    private func serve() {
        while let tcp = try? listener.accept(deadline: .never) {
            guard let answer = lock.withLock({ answers.isEmpty ? nil : answers.removeFirst() }) else {
                tcp.close()
                return
            }
            do { try answerOne(tcp, answer) } catch { tcp.close() }
        }
    }

    private func answerOne(_ tcp: TCPStream, _ answer: Answer) throws {
        let deadline = Deadline.after(seconds: 10)
        if case .tooManyUnauthenticated = answer {
            let body = "Too many unauthenticated sockets"
            let refusal = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
            _ = try? WebSocketConnection.accept(stream: tcp, deadline: deadline) { _ in (503, refusal) }
            lock.withLock { served.append(nil); listeners.append(nil) }
            return
        }
        let (connection, _) = try WebSocketConnection.accept(stream: tcp, deadline: deadline)
        let challenge: JSONValue = ["type": "event", "event": "connect.challenge", "payload": ["nonce": "n-1", "ts": 1]]
        try connection.send(text: Array(challenge.compactText.utf8), deadline: deadline)
        guard let request = try connection.receive(deadline: deadline) else { throw TransportError.closed("before the connect") }
        let id = (try? JSONValue.parse(request.bytes))?["id"] ?? "1"
        let reply: JSONValue
        switch answer {
        case .hello(let tickMs, let version):
            reply = ["type": "res", "id": id, "ok": true, "payload": [
                "type": "hello-ok", "protocol": JSONValue(version), "server": ["version": "scripted", "connId": "c"],
                "features": ["methods": [], "events": []], "snapshot": [:],
                "policy": ["maxPayload": 1_048_576, "maxBufferedBytes": 1_048_576, "tickIntervalMs": JSONValue(tickMs)],
            ]]
        case .pairingRequired(let requestId, let held):
            reply = ["type": "res", "id": id, "ok": false, "error": [
                "code": "NOT_PAIRED", "message": "pairing required: device is not approved yet",
                "details": ["code": "PAIRING_REQUIRED", "requestId": .string(requestId), "reason": "not-paired",
                            "waitForResolution": .bool(held)],
            ]]
        case .tooManyUnauthenticated:
            return
        }
        // Kept, and read, before the answer goes out: the test may act on it once the client has it.
        let index = lock.withLock { served.append(connection); return served.count - 1 }
        let descriptor = connection.fileDescriptor
        let listener = try JoinableThread(name: "scripted-peer") { [self] in listen(index, descriptor) }
        lock.withLock { listeners.append(listener) }
        try connection.send(text: Array(reply.compactText.utf8), deadline: deadline)
    }
}
