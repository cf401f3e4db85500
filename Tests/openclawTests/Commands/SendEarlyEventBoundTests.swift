import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport

/// `send` holds back run events that overtake the chat.send ack; a gateway that
/// floods them and never acks must not grow that buffer without bound (it was unbounded until the hardening pass).
@Suite struct SendEarlyEventBoundTests {
    /// A gateway that completes the handshake, then answers chat.send only with 20 MiB of the run's events.
    final class FloodingGateway: @unchecked Sendable {
        let listener: TCPListener
        let runID: String

        init(runID: String) throws {
            listener = try TCPListener(host: "127.0.0.1", port: 0)
            self.runID = runID
            let thread = Thread { [self] in serve() }
            thread.start()
        }

        private func send(_ socket: WebSocketConnection, _ value: JSONValue) throws {
            try socket.send(text: Array(value.compactText.utf8), deadline: .after(seconds: 10))
        }

        private func serve() {
            do {
                guard let stream = try listener.accept(deadline: .after(seconds: 20)) else { return }
                let socket = try WebSocketConnection.accept(stream: stream, deadline: .after(seconds: 10)).connection
                try send(socket, ["type": "event", "event": "connect.challenge", "payload": ["nonce": "n-1", "ts": 1]])
                while let message = try socket.receive(deadline: .after(seconds: 10)) {
                    let frame = try JSONValue.parse(message.bytes)
                    let id = frame["id"] ?? .null
                    switch frame["method"]?.stringValue {
                    case "connect":
                        try send(socket, ["type": "res", "id": id, "ok": true, "payload": [
                            "type": "hello-ok", "protocol": 3, "server": ["version": "flood", "connId": "c1"],
                            "policy": ["tickIntervalMs": 30000, "maxPayload": 26_214_400]]])
                    case "chat.send":
                        let text = JSONValue.string(String(repeating: "x", count: 64 * 1024))
                        for seq in 1...320 {
                            try send(socket, ["type": "event", "event": "chat", "seq": JSONValue(seq), "payload": [
                                "runId": .string(runID), "sessionKey": "main", "seq": JSONValue(seq), "state": "delta",
                                "message": ["role": "assistant", "content": [["type": "text", "text": text]]]]])
                        }
                    default: break
                    }
                }
            } catch {}
        }
    }

    @Test func eventsBeforeTheAckAreBounded() throws {
        let gateway = try FloodingGateway(runID: "flood-run")
        let result = try CLIEnvironment(url: "ws://127.0.0.1:\(gateway.listener.port)", token: "t")
            .run(["send", "--idempotency-key", "flood-run", "--timeout", "30", "hi"], timeout: 60)
        #expect(result.status == 6, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("16 MiB"), "\(result.stderr)")
    }
}
