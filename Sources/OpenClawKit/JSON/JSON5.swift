// STUB: replaced by the JSON work (issue 2). The signature is the contract.
/// A JSON5 reader for OpenClaw's `openclaw.json`.
public enum JSON5 {
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONError) -> JSONValue {
        fatalError("JSON5 reader not implemented")
    }
}
