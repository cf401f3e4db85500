import Foundation
@_spi(Engine) import ClawJSON

/// A connection that has completed the handshake and can receive events.
protocol EventSink: AnyObject, Sendable {
    var client: AcceptedClient { get }
    /// Queues an event; `seq` is the v3 global number, or `nil` to let the connection number it (v4).
    func enqueueEvent(_ name: String, payloadBytes: [UInt8], globalSeq: Int?, stateVersion: JSONValue?)
    /// Queues a message exactly as given (a `--script` frame or text step); it takes no `seq`.
    func enqueueRaw(_ bytes: [UInt8], isJSON: Bool)
}

/// Broadcasts events to every connected client with the outer `seq` of the protocol generation:
/// one global counter in v3, one counter per connection in v4 (§5.4).
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var sinks: [ObjectIdentifier: EventSink] = [:]
    private var globalSeq = 0
    let protocolVersion: Int
    /// `--fault seq-gap:N` (v3 here; v4 connections number their own events).
    private let gapEvery: Int?
    private var broadcasts = 0

    init(protocolVersion: Int, gapEvery: Int? = nil) {
        self.protocolVersion = protocolVersion
        self.gapEvery = gapEvery
    }

    /// Registers `sink` atomically with `prepare` (which queues hello-ok and what must follow it),
    /// so no broadcast can slip in before hello-ok or be missed after it. `prepare` gets a v3
    /// reserver of v3 global sequence numbers (usable there because the hub lock is held).
    func add(_ sink: EventSink, whileLocked prepare: (_ reserveGlobalSeq: (Int) -> Int) -> Void) {
        lock.withLock {
            prepare { count in
                let first = globalSeq + 1
                globalSeq += count
                return first
            }
            sinks[ObjectIdentifier(sink)] = sink
        }
    }
    func remove(_ sink: EventSink) { lock.withLock { sinks[ObjectIdentifier(sink)] = nil } }
    var connected: [EventSink] { lock.withLock { Array(sinks.values) } }

    /// Sends `name` to every client; `readScoped` events (chat, agent) skip v4 clients without read access;
    /// `requiredScope` events (pairing) skip clients without that scope in both generations.
    func broadcast(_ name: String, payload: JSONValue, readScoped: Bool = false, stateVersion: JSONValue? = nil,
                   requiredScope: String? = nil) {
        broadcast(name, payloadBytes: FrameEncoder.encode(payload), readScoped: readScoped, stateVersion: stateVersion,
                  requiredScope: requiredScope)
    }

    func broadcast(_ name: String, payloadBytes: [UInt8], readScoped: Bool = false, stateVersion: JSONValue? = nil,
                   requiredScope: String? = nil) {
        // Held across the loop so every connection sees broadcasts in one order.
        lock.withLock {
            var seq: Int? = nil
            if protocolVersion == 3 {
                broadcasts += 1
                globalSeq += 1
                if let gapEvery, broadcasts % gapEvery == 0 { globalSeq += 1 }
                seq = globalSeq
            }
            for sink in sinks.values {
                if readScoped && protocolVersion >= 4
                    && !GatewayVocabulary.scopes(sink.client.scopes, satisfy: GatewayVocabulary.read) { continue }
                if let requiredScope, !GatewayVocabulary.scopes(sink.client.scopes, satisfy: requiredScope) { continue }
                sink.enqueueEvent(name, payloadBytes: payloadBytes, globalSeq: seq, stateVersion: stateVersion)
            }
        }
    }

    /// Sends `bytes` unchanged to every client that may read chat events (`--script` frame and text steps).
    func broadcastRaw(_ bytes: [UInt8], isJSON: Bool) {
        lock.withLock {
            for sink in sinks.values {
                if protocolVersion >= 4 && !GatewayVocabulary.scopes(sink.client.scopes, satisfy: GatewayVocabulary.read) { continue }
                sink.enqueueRaw(bytes, isJSON: isJSON)
            }
        }
    }
}
