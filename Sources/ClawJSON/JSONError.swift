/// Why some bytes are not the JSON (or JSON5) they should be, and where.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Offset of the offending byte from the start of the input.
    public var offset: Int

    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }
}
