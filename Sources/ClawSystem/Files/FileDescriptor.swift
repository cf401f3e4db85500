import Glibc

/// The plain descriptor calls of the command line's streams (stdin, stdout, stderr, a signal pipe):
/// each is the system call, with errno as a `SystemError`. The stream paths (`write(all:)`, `read`)
/// are inlined into their callers, which run them per flush and per read.
@_spi(Engine) public enum FileDescriptor {
    /// `open(2)` for reading: follows symbolic links and blocks like a plain open, so a FIFO or
    /// `/dev/stdin` is read as its writer writes.
    @_spi(Engine) public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .last }
        return fd
    }

    @_spi(Engine) public static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// One `read(2)` of at most `buffer.count` bytes into the start of `buffer`: the byte count, 0 at
    /// the end of input. EINTR and EAGAIN come back as errors (`isInterrupted`, `isWouldBlock`) for
    /// the caller to decide.
    @inlinable
    @_spi(Engine) public static func read(_ descriptor: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .last }
        return count
    }

    /// Writes all `count` bytes, retrying on EINTR and waiting for room (`poll(2)`) when a
    /// non-blocking descriptor is full. False on any other error: EPIPE and friends mean the reader
    /// has gone.
    @inlinable
    @_spi(Engine) public static func write(all bytes: UnsafePointer<UInt8>, count: Int, to descriptor: Int32) -> Bool {
        write(all: bytes, count: count, with: { Glibc.write(descriptor, $0, $1) },
              whileBlocked: { Poll.waitUntilWritable(descriptor); return true })
    }

    /// The loop every whole write shares: `write` is one write(2)-like call (bytes written, or -1 with
    /// errno); EINTR retries, EAGAIN calls `whileBlocked` and retries (false from it gives the rest
    /// up), any other error is false.
    @inlinable
    static func write(all bytes: UnsafePointer<UInt8>, count: Int, with write: (UnsafePointer<UInt8>, Int) -> Int,
                      whileBlocked: () -> Bool) -> Bool {
        var offset = 0
        while offset < count {
            let written = write(bytes + offset, count - offset)
            if written >= 0 { offset += written; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN: if !whileBlocked() { return false }
            default: return false
            }
        }
        return true
    }

    /// One byte with one `write(2)`, the result ignored: the only call a signal handler makes.
    @inlinable
    @_spi(Engine) public static func writeFromSignalHandler(_ byte: UInt8, to descriptor: Int32) {
        var byte = byte
        _ = Glibc.write(descriptor, &byte, 1)
    }
}

/// Pipes between this process and itself or its neighbours in a shell pipeline.
@_spi(Engine) public enum Pipes {
    /// A new pipe whose both ends are non-blocking and close on exec (a self-pipe for signals);
    /// nil when none can be made.
    @_spi(Engine) public static func makeNonBlocking() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    /// Reads a non-blocking descriptor until nothing is left, discarding the bytes.
    @_spi(Engine) public static func drain(_ descriptor: Int32) {
        var byte: UInt8 = 0
        while Glibc.read(descriptor, &byte, 1) == 1 {}
    }

    /// Whether `descriptor` is a pipe (a FIFO): its write end reports POLLERR in poll(2), whatever
    /// was asked, once the reader has gone, so a writer can notice that without writing.
    @_spi(Engine) public static func isPipe(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Whether the write end `descriptor` of a pipe reports its reader gone (POLLERR), without waiting.
    @_spi(Engine) public static func readerGone(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: 0, revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLERR) != 0
    }

    /// Linux's F_SETPIPE_SZ, which Glibc's Swift module leaves out (it is behind _GNU_SOURCE).
    private static let setPipeSize: Int32 = 1031

    /// Asks for a pipe buffer of `bytes` when `descriptor` is a pipe (F_SETPIPE_SZ); anything else
    /// is left alone. Best effort: past the user's pipe quota (EPERM) the size stays as it was.
    @_spi(Engine) public static func enlargeBuffer(of descriptor: Int32, to bytes: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
        _ = fcntl(descriptor, setPipeSize, bytes)
    }
}
