@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// Buffered writing to a file descriptor with explicit flushes: frames that arrive together
/// leave in one write(2), and nothing waits in the buffer while openclaw waits for input.
/// The buffer is a fixed block written with memcpy: `watch` appends a line per event, and an
/// Array's append checks (uniqueness, capacity, the newline as a second append) cost more than the copy.
final class OutputStream: @unchecked Sendable {
    private let descriptor: Int32
    private static let capacity = 256 * 1024
    private let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: OutputStream.capacity)
    /// Bytes buffered. No runtime exclusivity check: nothing holds it across a call.
    @exclusivity(unchecked) private var used = 0
    /// Set once the reader went away (EPIPE): later writes are dropped.
    private(set) var isClosed = false
    /// Whether the first large flush has tried to enlarge a pipe on the descriptor.
    private var triedLargerPipe = false
    /// Waits for the descriptor when a write would block, keeping meanwhile what must not stall (the
    /// gateway's pings: a slow reader of stdout must not get the connection dropped). Setting one
    /// makes writes that would block return instead (`NonBlockingOutput`), so the wait is its.
    var whileBlocked: OutputWaiter? {
        didSet { if whileBlocked != nil && output == nil { output = NonBlockingOutput(descriptor) } }
    }
    /// How bytes are written without blocking, once a waiter asked for it.
    private var output: NonBlockingOutput?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        storage.deallocate()
        output?.close()
    }

    func write(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append($0) }) == nil { Array(bytes).withUnsafeBufferPointer { append($0) } }
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// One NDJSON line: the bytes and a newline.
    func writeLine(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { writeLine($0) } }

    func writeLine(_ line: UnsafeBufferPointer<UInt8>) {
        guard !isClosed else { return }
        let n = line.count
        if n < Self.capacity - used, let source = line.baseAddress {  // room for the line and its newline
            storage.advanced(by: used).update(from: source, count: n)
            storage[used + n] = 0x0A
            used += n + 1
            return
        }
        append(line)
        var newline: UInt8 = 0x0A
        withUnsafePointer(to: &newline) { append(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !isClosed, let source = bytes.baseAddress, bytes.count > 0 else { return }
        if bytes.count > Self.capacity - used {
            guard flush() else { return }
            // Larger than the whole buffer: straight out, after what was buffered before it.
            if bytes.count > Self.capacity { _ = writeAll(source, count: bytes.count); return }
        }
        storage.advanced(by: used).update(from: source, count: bytes.count)
        used += bytes.count
    }

    /// Writes out everything buffered. Returns false when the reader has gone (EPIPE).
    /// Never inlined: the command loop calls it before every wait, and inlined there (with the pipe
    /// check) it lengthened the loop's path for every frame.
    @discardableResult @inline(never)
    func flush() -> Bool {
        guard !isClosed else { return false }
        if !triedLargerPipe && used >= OutputStream.largeFlush { enlargePipe() }
        defer { used = 0 }
        return writeAll(storage, count: used)
    }

    private func writeAll(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let written: Bool
        if let output {
            written = FileDescriptor.write(all: bytes, count: count, through: output) { blocked in
                guard let whileBlocked else { _ = ConnectionRunner.waitUntilWritable(blocked, alert: -1, until: .never); return true }
                return whileBlocked.waitUntilWritable(blocked)
            }
        } else {
            written = FileDescriptor.write(all: bytes, count: count, to: descriptor)
        }
        if written { return true }
        // EPIPE and friends: the reader is gone; end quietly. Or the waiter gave the output up (a
        // signal's grace is over): what is left is dropped.
        isClosed = true
        return false
    }

    /// A flush this large means a stream (watch, a long history) rather than one reply.
    private static let largeFlush = 64 * 1024

    /// A 64 KiB pipe (Linux's default) makes the writer and the reader (`| wc -l`, `| jq`) take turns
    /// every 64 KiB; with 1 MiB each runs longer between context switches, which doubled watch's
    /// throughput through a pipe on two cores. Only for pipes, once, and only best effort: EPERM past
    /// the user's pipe quota leaves the default.
    private func enlargePipe() {
        triedLargerPipe = true
        Pipes.enlargeBuffer(of: descriptor, to: 1 << 20)
    }
}
