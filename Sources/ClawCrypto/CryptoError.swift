import CClawOpenSSL

/// A failure inside OpenSSL, carrying the operation and OpenSSL's own reason.
@_spi(Engine) public struct CryptoError: Error, CustomStringConvertible, Sendable {
    @_spi(Engine) public let operation: String
    @_spi(Engine) public let reason: String

    init(_ operation: String) {
        self.operation = operation
        self.reason = CryptoError.drainOpenSSLErrors()
    }

    @_spi(Engine) public var description: String {
        reason.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reason)"
    }

    /// Empties OpenSSL's thread-local error queue and returns its most recent entry as text.
    @_spi(Engine) public static func drainOpenSSLErrors() -> String { drainOpenSSLErrorQueue().text }

    /// Empties OpenSSL's thread-local error queue: every packed code, oldest first (for callers that
    /// tell reasons apart by number), and the most recent entry as text.
    @_spi(Engine) public static func drainOpenSSLErrorQueue() -> (codes: [UInt], text: String) {
        var codes: [UInt] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            codes.append(code)
        }
        guard let last = codes.last else { return ([], "") }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(last, &buffer, buffer.count)
        return (codes, String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
