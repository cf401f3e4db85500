/// A credential (token, password) whose text never reaches logs or error messages by accident:
/// printing, interpolating or dumping it yields `<redacted>`; only `value` gives the text.
package struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret text itself; read it only to put it on the wire or into a private file.
    package let value: String

    package init(_ value: String) { self.value = value }

    package var description: String { "<redacted>" }
    package var debugDescription: String { "<redacted>" }
    package var customMirror: Mirror { Mirror(self, children: ["value": "<redacted>"]) }
}
