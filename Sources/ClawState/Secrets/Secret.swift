/// A credential (token, password) whose text never reaches logs or error messages by accident:
/// printing, interpolating or dumping it yields `<redacted>`; only `value` gives the text.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret text itself; read it only to put it on the wire or into a private file.
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: ["value": "<redacted>"]) }
}
