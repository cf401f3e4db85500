
/// Why some bytes are not the JSON (or JSON5) they should be, and where.
@_spi(Engine) public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without where.
    @_spi(Engine) public var message: String
    /// Offset of the offending byte from the start of the input.
    @_spi(Engine) public var offset: Int
    /// 1-based line and column (in characters) of `offset`, for text people edit (JSON5); nil otherwise.
    @_spi(Engine) public var line: Int?
    @_spi(Engine) public var column: Int?

    @_spi(Engine) public init(_ message: String, offset: Int, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    @_spi(Engine) public var description: String {
        let position = line.map { " (line \($0), column \(column ?? 1))" } ?? ""
        return "\(message)\(position) at byte \(offset)"
    }
}
