// STUB: replaced by the JSON work (issue 2). The signatures are the contract.
extension JSONValue {
    /// Parses one JSON text (RFC 8259) from UTF-8 bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> JSONValue {
        fatalError("JSON parser not implemented")
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    public static func parse(_ text: String, maxDepth: Int = 256) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
