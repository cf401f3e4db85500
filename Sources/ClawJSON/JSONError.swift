/// Why some bytes are not the JSON (or JSON5) they should be, and where.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without where.
    package var message: String
    /// Offset of the offending byte from the start of the input.
    package var offset: Int
    /// 1-based line and column (in characters) of `offset`, for text people edit (JSON5); nil otherwise.
    package var line: Int?
    package var column: Int?

    package init(_ message: String, offset: Int, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    package var description: String {
        let position = line.map { " (line \($0), column \(column ?? 1))" } ?? ""
        return "\(message)\(position) at byte \(offset)"
    }
}
