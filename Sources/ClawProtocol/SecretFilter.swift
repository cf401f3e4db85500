@_spi(Engine) import ClawJSON




/// Guards output against secrets in gateway frames: the frame scanner already checked every member
/// name with `Redaction.isSecretKey` (escapes decoded), so frames it cleared are printed as received
/// and only the rest go through `Redaction`.
@_spi(Engine) public enum SecretFilter {
    /// Calls `body` with the frame's NDJSON line, redacted if it must be. The usual frame (no secret's
    /// member name, no raw line break) is lent straight from `frame.raw`: no copy, not even a retain.
    @inline(__always)
    @_spi(Engine) public static func withLine(for frame: GatewayFrame, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if !frame.fields.hasSecretKey && !frame.fields.hasLineBreak { return frame.raw.withUnsafeBufferPointer(body) }
        return line(for: frame).withUnsafeBufferPointer(body)
    }

    @_spi(Engine) public static func line(for frame: GatewayFrame) -> [UInt8] {
        guard frame.fields.hasSecretKey, Redaction.containsSecret(frame.value) else { return frame.line }
        var out = [UInt8]()
        Redaction.redact(frame.value).write(to: &out)
        return out
    }
}
