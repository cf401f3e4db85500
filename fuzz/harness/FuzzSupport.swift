// Shared by every harness (compiled into each binary next to the harness file).
import Glibc
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

/// Stops the fuzzer with a message: libFuzzer records the input as a crash.
func fuzzFail(_ message: String) -> Never {
    fputs("FUZZ INVARIANT BROKEN: \(message)\n", stderr)
    abort()
}

/// A small deterministic generator, seeded from the input, for chunk sizes.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An in-memory `ByteStream`: reads serve `input` in chunks of the given sizes, then end of stream.
final class FuzzStream: ByteStream, @unchecked Sendable {
    var input: [UInt8]
    var position = 0
    var rng: SplitMix
    let maxChunk: Int
    var written = 0
    var isClosed = false

    init(_ input: [UInt8], seed: UInt64, maxChunk: Int) {
        self.input = input
        rng = SplitMix(state: seed)
        self.maxChunk = max(1, maxChunk)
    }

    var fileDescriptor: Int32 { -1 }
    var hasBufferedInput: Bool { false }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int {
        if isClosed { throw .closed("the stream was closed") }
        let left = input.count - position
        if left == 0 { return 0 }
        let n = min(buffer.count, left, 1 + Int(rng.next() % UInt64(maxChunk)))
        for k in 0..<n { buffer[k] = input[position + k] }
        position += n
        return n
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) {
        if isClosed { throw .closed("the stream was closed") }
        written += bytes.count
    }

    func close() { isClosed = true }
}
