import ClawSystem

/// The routing fields of a gateway frame (`{"type":…,"event":…,"seq":…}`), read without building a tree.
package struct JSONFrameHeader: Sendable, Equatable {
    package var type: String?
    package var event: String?
    package var id: String?
    package var method: String?
    /// The top-level `seq` when it is an integer that fits.
    package var seq: Int64?
    package var ok: Bool?
    /// Byte range of the top-level `payload` value in the scanned input, to parse only that part when needed.
    package var payloadRange: Range<Int>?
    /// `payload.runId`, `payload.sessionKey`, `payload.state` and `payload.seq` when the payload is an
    /// object holding them with those types: what `watch` filters and checks sequences on.
    package var runId: String?
    package var sessionKey: String?
    package var state: String?
    package var runSeq: Int64?
    /// Some member name anywhere in the frame is one `SecretKeyName.matches` accepts (escapes decoded):
    /// when false, the frame holds nothing to redact and can be printed as received.
    package var hasSecretKey = false

    package init() {}

    /// The strings of `scanned`, read from the bytes it was scanned from.
    package init(_ scanned: ScannedFrame, bytes: UnsafeRawBufferPointer) {
        type = scanned.type?.string(in: bytes)
        event = scanned.event?.string(in: bytes)
        id = scanned.id?.string(in: bytes)
        method = scanned.method?.string(in: bytes)
        seq = scanned.seq
        ok = scanned.ok
        payloadRange = scanned.payloadRange
        runId = scanned.runId?.string(in: bytes)
        sessionKey = scanned.sessionKey?.string(in: bytes)
        state = scanned.state?.string(in: bytes)
        runSeq = scanned.runSeq
        hasSecretKey = scanned.hasSecretKey
    }
}
