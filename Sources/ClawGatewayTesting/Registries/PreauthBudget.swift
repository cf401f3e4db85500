import Foundation

/// The official gateway's cap on unauthenticated sockets per client address: a socket holds a place
/// from its upgrade until hello-ok (or until it closes); past `limit` places an upgrade is answered
/// `HTTP 503` with the body "Too many unauthenticated sockets" and the socket closed.
final class PreauthBudget: @unchecked Sendable {
    static let refusalBody = "Too many unauthenticated sockets"

    let limit: Int
    private let lock = NSLock()
    private var held: [String: Int] = [:]

    init(limit: Int) { self.limit = limit }

    /// Takes a place for `address`; false when it has `limit` already.
    func acquire(_ address: String) -> Bool {
        lock.withLock {
            let count = held[address, default: 0]
            guard count < limit else { return false }
            held[address] = count + 1
            return true
        }
    }

    func release(_ address: String) {
        lock.withLock {
            let count = (held[address] ?? 1) - 1
            held[address] = count > 0 ? count : nil  // no entry left behind per address
        }
    }

    /// The whole answer to a refused upgrade, as the official gateway writes it.
    static var refusal: [UInt8] {
        Array(("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(refusalBody.utf8.count)\r\n\r\n" + refusalBody).utf8)
    }
}
