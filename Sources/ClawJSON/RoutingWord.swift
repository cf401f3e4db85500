@_spi(Engine) import ClawSystem

/// The protocol's common routing words, recognised while scanning so that routing compares a byte,
/// not a String (and a String for one is a literal: no allocation, no UTF-8 re-validation).
@_spi(Engine) public enum RoutingWord: UInt8, Sendable {
    case other, res, req, event, chat, main, tick, delta, final, agent, error, health, status, aborted, shutdown

    @_spi(Engine) public var text: String? {
        switch self {
        case .other: return nil
        case .res: return "res"
        case .req: return "req"
        case .event: return "event"
        case .chat: return "chat"
        case .main: return "main"
        case .tick: return "tick"
        case .delta: return "delta"
        case .final: return "final"
        case .agent: return "agent"
        case .error: return "error"
        case .health: return "health"
        case .status: return "status"
        case .aborted: return "aborted"
        case .shutdown: return "shutdown"
        }
    }
}
