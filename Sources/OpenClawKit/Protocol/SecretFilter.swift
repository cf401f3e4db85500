/// Guards output against secrets in gateway frames: the frame scanner already checked every member
/// name with `Redaction.isSecretKey` (escapes decoded), so frames it cleared are printed as received
/// and only the rest go through `Redaction`.
public enum SecretFilter {
    public static func line(for frame: GatewayFrame) -> [UInt8] {
        guard frame.fields.hasSecretKey, Redaction.containsSecret(frame.value) else { return frame.line }
        var out = [UInt8]()
        Redaction.redact(frame.value).write(to: &out)
        return out
    }
}
