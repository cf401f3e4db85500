/// Guards output against secrets in gateway frames at a cost of one byte scan per frame: frames
/// the scan clears are printed as received, the rest go through `Redaction`. The markers live here,
/// beside `Redaction.isSecretKey`, because the two must agree.
public enum SecretFilter {
    /// Lower-case ASCII pieces of every name `Redaction.isSecretKey` accepts, matched case-insensitively,
    /// each with the index of a rare byte to scan for; a `\u` escape could spell any of them, so it sends
    /// the frame to the exact check too.
    private static let markers: [(bytes: [UInt8], anchor: Int)] = [
        (Array("oken\"".utf8), 1), (Array("assword".utf8), 3), (Array("ecret".utf8), 1),
        (Array("rivatekey".utf8), 6), (Array("apikey\"".utf8), 3), (Array("\\u".utf8), 0),
    ]

    public static func line(for frame: GatewayFrame) -> [UInt8] {
        // The scanner already checked every member name (exactly, escapes decoded), which is cheaper
        // than the byte prefilter below and lets fewer frames through to the exact check.
        guard frame.fields.hasSecretKey, Redaction.containsSecret(frame.value) else { return frame.line }
        var out = [UInt8]()
        Redaction.redact(frame.value).write(to: &out)
        return out
    }

    public static func mayContainSecret(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            markers.contains { marker in
                marker.bytes.withUnsafeBytes { ByteSearch.containsIgnoringASCIICase(buffer, $0, anchor: marker.anchor) }
            }
        }
    }
}
