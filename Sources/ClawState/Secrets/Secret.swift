
/// A credential (token, password) whose text never reaches logs or error messages by accident:
/// printing, interpolating or dumping it yields `<redacted>`; only `value` gives the text.
@_spi(Engine) public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret text itself; read it only to put it on the wire or into a private file.
    @_spi(Engine) public let value: String

    @_spi(Engine) public init(_ value: String) { self.value = value }

    @_spi(Engine) public var description: String { "<redacted>" }
    @_spi(Engine) public var debugDescription: String { "<redacted>" }
    @_spi(Engine) public var customMirror: Mirror { Mirror(self, children: ["value": "<redacted>"]) }
}
