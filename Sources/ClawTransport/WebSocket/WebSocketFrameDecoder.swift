@_spi(Engine) import ClawSystem
/// Turns received bytes into messages and control frames for one role, enforcing RFC 6455 as it goes.
/// It never buffers input itself: it consumes what it can from the caller's buffer and streams payloads
/// straight into the message being assembled, checking the size limit from each frame header first.
struct WebSocketFrameDecoder {
    enum Event: Equatable {
        case message(WebSocketMessage)
        /// Close, ping or pong with its (unmasked) payload.
        case control(WebSocketOpcode, [UInt8])
    }

    /// A protocol violation and the close code it calls for.
    struct Violation: Error, Equatable {
        var code: UInt16
        var reason: String
    }

    /// The server expects masked frames; the client expects unmasked ones.
    let expectsMaskedFrames: Bool
    var maxMessageSize: Int
    /// Leave the UTF-8 check of a whole (unfragmented, fully buffered) text message to the caller, who
    /// is told by `textUnchecked` (see `WebSocketConnection.receiveBytes(deadline:utf8Checked:)`).
    var defersWholeTextCheck = false
    /// The text message just returned has not been checked for UTF-8 (only with `defersWholeTextCheck`).
    private(set) var textUnchecked = false

    // The data frame whose payload is being streamed.
    private var inFrame = false
    private var frameRemaining = 0
    private var frameIsFinal = false
    private var frameMask: WebSocketMask? = nil
    private var maskPhase = 0

    // The message being assembled (from one frame or several fragments).
    private var messageOpcode: WebSocketOpcode? = nil
    private var message: [UInt8] = []
    private var utf8 = UTF8StreamValidator()
    /// The text message being streamed is one frame begun under `defersWholeTextCheck`: its UTF-8 check is
    /// left to the caller too (a long streamed reply is then read once, by the frame scanner, not twice).
    private var streamUnchecked = false
    /// The last whole message, kept to reuse its storage (`wholePayload`).
    private var recycled: [UInt8] = []

    init(role: WebSocketConnection.Role, maxMessageSize: Int) {
        expectsMaskedFrames = role == .server
        self.maxMessageSize = maxMessageSize
    }

    /// Consumes bytes from `input` until one event is complete or more input is needed.
    /// Returns how many bytes were used; unconsumed bytes must be offered again with more appended.
    mutating func decode(_ input: UnsafeRawBufferPointer) throws(Violation) -> (consumed: Int, event: Event?) {
        guard let base = input.baseAddress else { return (0, nil) }
        let count = input.count
        var offset = 0
        while true {
            if inFrame {
                let n = min(frameRemaining, count - offset)
                if n > 0 {
                    try appendPayload(base + offset, count: n)
                    offset += n
                    frameRemaining -= n
                }
                if frameRemaining > 0 { return (offset, nil) }
                inFrame = false
                if frameIsFinal { return (offset, .message(try finishMessage())) }
                continue
            }
            if !expectsMaskedFrames && messageOpcode == nil && count - offset >= 4 {
                // What a gateway sends all day, in a few compares: an unmasked, unfragmented text frame
                // (0x81) of less than 64 KiB, whole in the buffer. Anything else, or anything that would
                // fail a check, takes the general path below.
                let first = base.load(fromByteOffset: offset, as: UInt8.self)
                let second = base.load(fromByteOffset: offset + 1, as: UInt8.self)
                if first == 0x81 && second <= 126 {
                    let headerLength = second == 126 ? 4 : 2
                    let length = second < 126 ? Int(second)
                        : Int(base.load(fromByteOffset: offset + 2, as: UInt8.self)) << 8 | Int(base.load(fromByteOffset: offset + 3, as: UInt8.self))
                    if length <= maxMessageSize && count - offset - headerLength >= length {
                        let message = try wholeMessage(.text, base + offset + headerLength, count: length, mask: nil)
                        return (offset + headerLength + length, .message(message))
                    }
                }
            }
            guard let header = try Self.parseHeader(base + offset, count: count - offset) else { return (offset, nil) }
            try check(header)
            let available = count - offset - header.headerLength
            if header.opcode.isControl {
                let length = Int(header.payloadLength)
                guard available >= length else { return (offset, nil) }
                let payload = Self.copyPayload(base + offset + header.headerLength, count: length, mask: header.mask)
                offset += header.headerLength + length
                return (offset, .control(header.opcode, payload))
            }
            let length = Int(header.payloadLength)
            if header.opcode != .continuation && header.fin && available >= length {
                let message = try wholeMessage(header.opcode, base + offset + header.headerLength, count: length, mask: header.mask)
                return (offset + header.headerLength + length, .message(message))
            }
            if header.opcode != .continuation {
                messageOpcode = header.opcode
                message = []
                message.reserveCapacity(length)
                utf8 = UTF8StreamValidator()
                streamUnchecked = header.opcode == .text && header.fin && defersWholeTextCheck
            }
            inFrame = true
            frameRemaining = length
            frameIsFinal = header.fin
            frameMask = header.mask
            maskPhase = 0
            offset += header.headerLength
        }
    }

    /// True when `input` holds enough bytes to finish the current frame or one whole next frame
    /// (or a malformed header, which `decode` turns into an error at once).
    func hasCompleteFrame(_ input: UnsafeRawBufferPointer) -> Bool {
        if inFrame { return input.count >= frameRemaining }
        guard let base = input.baseAddress else { return false }
        do {
            guard let header = try Self.parseHeader(base, count: input.count) else { return false }
            return UInt64(input.count - header.headerLength) >= header.payloadLength
        } catch {
            return true
        }
    }

    private mutating func appendPayload(_ source: UnsafeRawPointer, count: Int) throws(Violation) {
        let start = message.count
        message.append(contentsOf: UnsafeRawBufferPointer(start: source, count: count))
        let phase = maskPhase
        let mask = frameMask
        let isText = messageOpcode == .text
        let valid: Bool = message.withUnsafeMutableBytes { all in
            let chunk = all.baseAddress! + start
            if let mask { mask.apply(from: chunk, to: chunk, count: count, phase: phase) }
            return !isText || streamUnchecked || utf8.feed(UnsafeRawBufferPointer(start: chunk, count: count))
        }
        maskPhase = (maskPhase + count) & 3
        guard valid else {
            throw Violation(code: WebSocketCloseCode.invalidPayload, reason: "text message is not valid UTF-8")
        }
    }

    private mutating func finishMessage() throws(Violation) -> WebSocketMessage {
        let opcode = messageOpcode
        messageOpcode = nil
        let bytes = message
        message = []
        textUnchecked = false
        if opcode == .text && streamUnchecked {
            streamUnchecked = false
            // Begun under the deferral but finished without it (another kind of read): checked here.
            textUnchecked = defersWholeTextCheck
            guard defersWholeTextCheck || UTF8StreamValidator.isValid(bytes) else {
                throw Violation(code: WebSocketCloseCode.invalidPayload, reason: "text message is not valid UTF-8")
            }
            return .text(bytes)
        }
        if opcode == .text {
            guard utf8.isComplete else {
                throw Violation(code: WebSocketCloseCode.invalidPayload, reason: "text message ends inside a UTF-8 sequence")
            }
            return .text(bytes)
        }
        return .binary(bytes)
    }

    private func check(_ header: Header) throws(Violation) {
        let protocolError = WebSocketCloseCode.protocolError
        if header.masked != expectsMaskedFrames {
            throw Violation(code: protocolError, reason: header.masked ? "the server sent a masked frame" : "the client sent an unmasked frame")
        }
        if header.opcode.isControl {
            if !header.fin { throw Violation(code: protocolError, reason: "fragmented control frame") }
            if header.payloadLength > 125 {
                throw Violation(code: protocolError, reason: "control frame payload of \(header.payloadLength) bytes (at most 125)")
            }
            return
        }
        if header.opcode == .continuation {
            if messageOpcode == nil {
                throw Violation(code: protocolError, reason: "continuation frame without a message to continue")
            }
        } else if messageOpcode != nil {
            throw Violation(code: protocolError, reason: "new data frame while a fragmented message is unfinished")
        }
        let limit = UInt64(max(0, maxMessageSize))
        let already = header.opcode == .continuation ? UInt64(message.count) : 0
        if header.payloadLength > limit || already > limit - header.payloadLength {
            throw Violation(code: WebSocketCloseCode.messageTooBig,
                            reason: "message larger than the \(maxMessageSize)-byte limit")
        }
    }

    private static func copyPayload(_ source: UnsafeRawPointer, count: Int, mask: WebSocketMask?) -> [UInt8] {
        // An empty payload (a close frame without a code, say) is the shared empty array: the
        // uninitialised-capacity initialiser would write its count into that one global storage, from
        // every connection's thread at once (ThreadSanitizer reports it).
        guard count > 0 else { return [] }
        // Written once, straight into uninitialised storage (no zero fill first).
        return [UInt8](unsafeUninitializedCapacity: count) { destination, initialized in
            if count > 0, let base = destination.baseAddress {
                if let mask {
                    mask.apply(from: source, to: UnsafeMutableRawPointer(base), count: count, phase: 0)
                } else {
                    UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: count)
                }
            }
            initialized = count
        }
    }

    /// Messages up to this size reuse the previous message's storage once its reader has let go of it.
    static let recycledCapacity = 64 * 1024

    /// A whole message from the buffer. Allocating a fresh [UInt8] costs more than copying 300 bytes on
    /// Linux (the stdlib looks the array's metadata up at run time; bench/README.md): so the decoder keeps
    /// a second reference to the last small message and, when it is the only holder left (the frame was
    /// printed and dropped), refills that storage in place. Value semantics are untouched: a message still
    /// held elsewhere is never written (it is not uniquely referenced, so a new array is made instead).
    /// A whole unfragmented message (text or binary) that is all in the buffer: at most one allocation.
    @inline(__always)
    private mutating func wholeMessage(_ opcode: WebSocketOpcode, _ source: UnsafeRawPointer, count: Int,
                                       mask: WebSocketMask?) throws(Violation) -> WebSocketMessage {
        let payload = wholePayload(source, count: count, mask: mask)
        guard opcode == .text else {
            textUnchecked = false
            return .binary(payload)
        }
        textUnchecked = defersWholeTextCheck
        guard defersWholeTextCheck || UTF8StreamValidator.isValid(payload) else {
            throw Violation(code: WebSocketCloseCode.invalidPayload, reason: "text message is not valid UTF-8")
        }
        return .text(payload)
    }

    private mutating func wholePayload(_ source: UnsafeRawPointer, count: Int, mask: WebSocketMask?) -> [UInt8] {
        guard count <= Self.recycledCapacity else { return Self.copyPayload(source, count: count, mask: mask) }
        var payload = recycled
        recycled = []
        if payload.capacity < count {
            payload = Self.copyPayload(source, count: count, mask: mask)
        } else {
            // One call: in place only when unique; else the array gets new storage.
            payload.replaceSubrange(0..<payload.count,
                                    with: UnsafeBufferPointer(start: source.assumingMemoryBound(to: UInt8.self), count: count))
            if let mask {
                payload.withUnsafeMutableBytes { bytes in
                    mask.apply(from: bytes.baseAddress!, to: bytes.baseAddress!, count: count, phase: 0)
                }
            }
        }
        recycled = payload
        return payload
    }

    struct Header {
        var fin: Bool
        var opcode: WebSocketOpcode
        var masked: Bool
        var mask: WebSocketMask?
        var payloadLength: UInt64
        var headerLength: Int
    }

    /// Parses a frame header; `nil` if `count` bytes are not enough yet.
    static func parseHeader(_ base: UnsafeRawPointer, count: Int) throws(Violation) -> Header? {
        guard count >= 2 else { return nil }
        let first = base.load(as: UInt8.self)
        let second = base.load(fromByteOffset: 1, as: UInt8.self)
        if first & 0x70 != 0 {
            throw Violation(code: WebSocketCloseCode.protocolError, reason: "reserved bits set without a negotiated extension")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw Violation(code: WebSocketCloseCode.protocolError, reason: "unknown opcode \(first & 0x0F)")
        }
        let masked = second & 0x80 != 0
        var length = UInt64(second & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard count >= 4 else { return nil }
            length = UInt64(base.load(fromByteOffset: 2, as: UInt8.self)) << 8 | UInt64(base.load(fromByteOffset: 3, as: UInt8.self))
            headerLength = 4
        } else if length == 127 {
            guard count >= 10 else { return nil }
            length = 0
            for i in 2..<10 { length = length << 8 | UInt64(base.load(fromByteOffset: i, as: UInt8.self)) }
            if length & (1 << 63) != 0 {
                throw Violation(code: WebSocketCloseCode.protocolError, reason: "64-bit payload length with the most significant bit set")
            }
            headerLength = 10
        }
        var mask: WebSocketMask? = nil
        if masked {
            guard count >= headerLength + 4 else { return nil }
            mask = WebSocketMask(base.load(fromByteOffset: headerLength, as: UInt8.self),
                                 base.load(fromByteOffset: headerLength + 1, as: UInt8.self),
                                 base.load(fromByteOffset: headerLength + 2, as: UInt8.self),
                                 base.load(fromByteOffset: headerLength + 3, as: UInt8.self))
            headerLength += 4
        }
        return Header(fin: first & 0x80 != 0, opcode: opcode, masked: masked, mask: mask,
                      payloadLength: length, headerLength: headerLength)
    }
}
