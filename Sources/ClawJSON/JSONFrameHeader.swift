@_spi(Engine) import ClawSystem

/// The routing fields of a gateway frame (`{"type":…,"event":…,"seq":…}`), read without building a tree.
@_spi(Engine) public struct JSONFrameHeader: Sendable, Equatable {
    @_spi(Engine) public var type: String?
    @_spi(Engine) public var event: String?
    @_spi(Engine) public var id: String?
    @_spi(Engine) public var method: String?
    /// The top-level `seq` when it is an integer that fits.
    @_spi(Engine) public var seq: Int64?
    @_spi(Engine) public var ok: Bool?
    /// Byte range of the top-level `payload` value in the scanned input, to parse only that part when needed.
    @_spi(Engine) public var payloadRange: Range<Int>?
    /// `payload.runId`, `payload.sessionKey`, `payload.state` and `payload.seq` when the payload is an
    /// object holding them with those types: what `watch` filters and checks sequences on.
    @_spi(Engine) public var runId: String?
    @_spi(Engine) public var sessionKey: String?
    @_spi(Engine) public var state: String?
    @_spi(Engine) public var runSeq: Int64?
    /// Some member name anywhere in the frame is one `SecretKeyName.matches` accepts (escapes decoded):
    /// when false, the frame holds nothing to redact and can be printed as received.
    @_spi(Engine) public var hasSecretKey = false

    @_spi(Engine) public init() {}

    /// The strings of `scanned`, read from the bytes it was scanned from.
    @_spi(Engine) public init(_ scanned: ScannedFrame, bytes: UnsafeRawBufferPointer) {
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
