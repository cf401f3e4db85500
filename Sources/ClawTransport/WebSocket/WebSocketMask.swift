
/// A 4-byte masking key (RFC 6455 §5.3), applied eight bytes at a time.
struct WebSocketMask: Equatable {
    var b0: UInt8, b1: UInt8, b2: UInt8, b3: UInt8

    init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) { self.b0 = b0; self.b1 = b1; self.b2 = b2; self.b3 = b3 }

    subscript(index: Int) -> UInt8 {
        switch index & 3 { case 0: return b0; case 1: return b1; case 2: return b2; default: return b3 }
    }

    /// XORs `count` bytes from `source` into `destination` (they may be the same), starting at key position `phase`.
    func apply(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int, phase: Int) {
        // The key repeated twice, in memory order (byte 0 first) whatever the machine's endianness.
        let half = UInt64(self[phase]) | UInt64(self[phase + 1]) << 8 | UInt64(self[phase + 2]) << 16 | UInt64(self[phase + 3]) << 24
        let word = UInt64(littleEndian: half | half << 32)
        var i = 0
        while i + 8 <= count {
            let value = source.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ word
            destination.storeBytes(of: value, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            let value = source.load(fromByteOffset: i, as: UInt8.self) ^ self[phase + i]
            destination.storeBytes(of: value, toByteOffset: i, as: UInt8.self)
            i += 1
        }
    }
}
