// STUB: replaced by the JSON work (issue 2). The signatures are the contract.
extension JSONValue {
    /// Appends the compact JSON text of this value (RFC 8259 escapes, numbers as written).
    public func write(to output: inout [UInt8]) {
        fatalError("JSON printer not implemented")
    }

    /// The compact JSON text of this value.
    public var compactText: String {
        var out = [UInt8]()
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented text for people (`call -o text`): two spaces per level.
    public var prettyText: String {
        fatalError("JSON pretty printer not implemented")
    }
}
