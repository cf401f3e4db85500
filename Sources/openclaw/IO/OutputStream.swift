import Glibc

/// Buffered writing to a file descriptor with explicit flushes: frames that arrive together
/// leave in one write(2), and nothing waits in the buffer while openclaw waits for input.
final class OutputStream: @unchecked Sendable {
    private let descriptor: Int32
    /// Appended to once per printed line: no runtime exclusivity check (nothing holds it across a call).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Set once the reader went away (EPIPE): later writes are dropped.
    private(set) var isClosed = false
    /// Whether the first large flush has tried to enlarge a pipe on the descriptor.
    private var triedLargerPipe = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(64 * 1024)
    }

    func write(_ bytes: some Collection<UInt8>) { if !isClosed { buffer.append(contentsOf: bytes) } }
    func write(_ text: String) { write(text.utf8) }

    /// One NDJSON line: the bytes and a newline.
    func writeLine(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= 256 * 1024 { flush() }
    }

    /// Writes out everything buffered. Returns false when the reader has gone (EPIPE).
    @discardableResult
    func flush() -> Bool {
        guard !isClosed else { return false }
        if !triedLargerPipe && buffer.count >= OutputStream.largeFlush { enlargePipe() }
        var offset = 0
        defer { buffer.removeAll(keepingCapacity: true) }
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written >= 0 { offset += written; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                var pfd = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, -1)
            default:
                // EPIPE and friends: the reader is gone; end quietly.
                isClosed = true
                return false
            }
        }
        return true
    }

    /// A flush this large means a stream (watch, a long history) rather than one reply.
    private static let largeFlush = 64 * 1024
    /// Linux's F_SETPIPE_SZ, which Glibc's Swift module leaves out (it is behind _GNU_SOURCE).
    private static let setPipeSize: Int32 = 1031

    /// A 64 KiB pipe (Linux's default) makes the writer and the reader (`| wc -l`, `| jq`) take turns
    /// every 64 KiB; with 1 MiB each runs longer between context switches, which doubled watch's
    /// throughput through a pipe on two cores. Only for pipes, once, and only best effort: EPERM past
    /// the user's pipe quota leaves the default.
    private func enlargePipe() {
        triedLargerPipe = true
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
        _ = fcntl(descriptor, OutputStream.setPipeSize, Int32(1 << 20))
    }
}
