import Foundation
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawProtocol

/// Who asked for session events (protocol-2026-09 "Session subscriptions, exactly"):
/// `sessions.subscribe` connections get `sessions.changed`, `sessions.messages.subscribe {key}`
/// connections get that session's `session.message`. Both are targeted events: they go straight
/// to the subscriber's queue with no outer `seq`, so they never move a connection's numbering.
final class SubscriptionRegistry: @unchecked Sendable {
    typealias Send = @Sendable ([UInt8]) -> Void

    private struct Subscriber {
        var send: Send
        var sessionEvents = false
        /// Canonical session keys.
        var messageKeys: Set<String> = []
    }

    private let lock = NSLock()
    private var subscribers: [String: Subscriber] = [:]  // by connId

    /// `answer` (the method's `res`) is queued under the same lock as the change: an event published
    /// after the change cannot overtake it, and none published after the client read it is missed.
    func setSessionEvents(_ on: Bool, connId: String, send: @escaping Send, answer: [UInt8]) {
        update(connId, send, answer) { $0.sessionEvents = on }
    }

    func setMessages(_ on: Bool, sessionKey: String, connId: String, send: @escaping Send, answer: [UInt8]) {
        update(connId, send, answer) { subscriber in
            if on { subscriber.messageKeys.insert(sessionKey) } else { subscriber.messageKeys.remove(sessionKey) }
        }
    }

    /// A closed connection stops everything it subscribed to.
    func remove(connId: String) { lock.withLock { subscribers[connId] = nil } }

    private func update(_ connId: String, _ send: @escaping Send, _ answer: [UInt8], _ change: (inout Subscriber) -> Void) {
        lock.withLock {
            send(answer)
            var subscriber = subscribers[connId] ?? Subscriber(send: send)
            change(&subscriber)
            subscribers[connId] = subscriber.sessionEvents || !subscriber.messageKeys.isEmpty ? subscriber : nil
        }
    }

    /// `sessions.changed` to every `sessions.subscribe` connection.
    func publishSessionsChanged(_ payload: JSONValue) {
        lock.withLock {
            let targets = subscribers.values.filter(\.sessionEvents)
            guard !targets.isEmpty else { return }
            let frame = FrameEncoder.event(GatewayEventName.sessionsChanged, payload: payload, seq: nil)
            for target in targets { target.send(frame) }
        }
    }

    /// `session.message {sessionKey, message, messageId, messageSeq}` to the session's subscribers.
    /// Called by the transcript under its lock, so subscribers see messages in transcript order.
    func messageAppended(sessionKey: String, message: [UInt8], messageSeq: Int) {
        lock.withLock {
            let targets = subscribers.values.filter { $0.messageKeys.contains(sessionKey) }
            guard !targets.isEmpty else { return }
            var payload = [UInt8]()
            payload.reserveCapacity(message.count + sessionKey.utf8.count + 96)
            payload.append(contentsOf: #"{"sessionKey":"#.utf8)
            JSONValue.string(sessionKey).write(to: &payload)
            payload.append(contentsOf: #","message":"#.utf8)
            payload.append(contentsOf: message)
            payload.append(contentsOf: #","messageId":"#.utf8)
            JSONValue.string(SecureRandom.uuid()).write(to: &payload)
            payload.append(contentsOf: #","messageSeq":\#(messageSeq)}"#.utf8)
            let frame = FrameEncoder.event(GatewayEventName.sessionMessage, payloadBytes: payload, seq: nil)
            for target in targets { target.send(frame) }
        }
    }
}
