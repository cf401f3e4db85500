import Foundation

/// What a connection's writer thread sends, in order.
enum OutboundItem {
    /// A complete JSON message (sent as text, binary or fragments depending on faults).
    case message([UInt8])
    /// A text frame that is not JSON (the `bad-json` fault).
    case notJSON([UInt8])
    /// Bytes written around the WebSocket framing (the `garbage` fault).
    case raw([UInt8])
    /// `count` pre-encoded chat deltas whose outer `seq` starts at `firstSeq`.
    case blast(count: Int, firstSeq: Int)
    case ping
    /// The keepalive's ping (`--ping-ms`): its pong deadline starts once it is written.
    case keepAlivePing
    /// Sends a close frame and ends the connection.
    case close(code: UInt16, reason: String)
    /// Drops the TCP connection without a close frame.
    case drop

    var byteCount: Int {
        switch self {
        case .message(let b), .notJSON(let b), .raw(let b): return b.count
        default: return 0
        }
    }
}

/// A connection's outbound queue: producers append, one writer drains. When unsent bytes pass
/// `maxBufferedBytes` nothing more is queued but a 1008 "slow consumer" close: what was already
/// buffered is still delivered first, as a real socket would (§1, slow consumers).
final class OutboundQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [OutboundItem] = []
    private var head = 0
    private var queuedBytes = 0
    private var closing = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Appends unless a close is already queued; `assign` runs under the queue lock (to number events in queue order).
    func push(_ make: () -> OutboundItem) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        let item = make()
        switch item {
        case .close, .drop: closing = true
        default: break
        }
        if queuedBytes + item.byteCount > limit {
            items.append(.close(code: 1008, reason: "slow consumer"))
            closing = true
        } else {
            queuedBytes += item.byteCount
            items.append(item)
        }
        condition.signal()
    }

    func push(_ item: OutboundItem) { push { item } }

    /// Blocks until an item is available.
    func pop() -> OutboundItem {
        condition.lock()
        defer { condition.unlock() }
        while head >= items.count { condition.wait() }
        let item = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        queuedBytes -= item.byteCount
        return item
    }
}
