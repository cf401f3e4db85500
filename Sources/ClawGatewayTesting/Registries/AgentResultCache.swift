import Foundation
@_spi(Engine) import ClawJSON

/// The final payloads of settled `agent` runs by run id, so a request repeating a finished run's
/// idempotency key gets the final answer again, as from the gateway's dedupe cache.
final class AgentResultCache: @unchecked Sendable {
    private let lock = NSLock()
    private var payloads: [String: JSONValue] = [:]
    private var order: [String] = []

    func store(_ runId: String, _ payload: JSONValue) {
        lock.withLock {
            if payloads.updateValue(payload, forKey: runId) == nil { order.append(runId) }
            if order.count > RunRegistry.cacheLimit { payloads[order.removeFirst()] = nil }
        }
    }

    func payload(_ runId: String) -> JSONValue? { lock.withLock { payloads[runId] } }
}
