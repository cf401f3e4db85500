/// Guards output against secrets in gateway frames: the frame scanner already checked every member
/// name with `Redaction.isSecretKey` (escapes decoded), so frames it cleared are printed as received
/// and only the rest go through `Redaction`.
public enum SecretFilter {
    /// The frame's line is the bytes as received (no secret's member name, no raw line break): the
    /// usual case, which callers print straight from `frame.raw`.
    @inline(__always)
    public static func printsAsReceived(_ frame: GatewayFrame) -> Bool {
        !frame.fields.hasSecretKey && !frame.fields.hasLineBreak
    }

    public static func line(for frame: GatewayFrame) -> [UInt8] {
        guard frame.fields.hasSecretKey, Redaction.containsSecret(frame.value) else { return frame.line }
        var out = [UInt8]()
        Redaction.redact(frame.value).write(to: &out)
        return out
    }
}
