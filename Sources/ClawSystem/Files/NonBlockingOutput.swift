import Glibc

/// Writes to a descriptor without ever blocking, and without changing the descriptor itself: its open
/// file description is shared with the shell and the other processes of a pipeline, which setting
/// O_NONBLOCK on it would surprise. A pipe or a terminal gets a description of its own, opened through
/// /proc/self/fd and made non-blocking; a socket is written with MSG_DONTWAIT. Anything else (a regular
/// file, /dev/null) never waits for a reader and is written as it is, as is a pipe that cannot be
/// opened again (no /proc): a write there may still block, as it always did.
@_spi(Engine) public final class NonBlockingOutput {
    /// The descriptor written, and the one to poll for POLLOUT.
    @_spi(Engine) public let descriptor: Int32
    private let isSocket: Bool
    private let ownsDescriptor: Bool

    @_spi(Engine) public init(_ fd: Int32) {
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        if kind == S_IFSOCK {
            (descriptor, isSocket, ownsDescriptor) = (fd, true, false)
        } else if kind == S_IFIFO || (kind == S_IFCHR && isatty(fd) == 1) {
            let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            (descriptor, isSocket, ownsDescriptor) = own >= 0 ? (own, false, true) : (fd, false, false)
        } else {
            (descriptor, isSocket, ownsDescriptor) = (fd, false, false)
        }
    }

    /// write(2)'s result: bytes written, or -1 with errno (EAGAIN when it would block).
    @_spi(Engine) public func write(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        isSocket ? send(descriptor, bytes, count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) : Glibc.write(descriptor, bytes, count)
    }

    @_spi(Engine) public func close() {
        if ownsDescriptor { _ = Glibc.close(descriptor) }
    }
}

extension FileDescriptor {
    /// Writes all `count` bytes through `output`, which never blocks: when the descriptor is full,
    /// `whileBlocked` is called with the descriptor to wait on and returns true once it may take more
    /// (or failed: the next write says how), false to give the rest up. False on any error but EINTR
    /// and EAGAIN (the reader is gone), and when the rest was given up.
    @_spi(Engine) public static func write(all bytes: UnsafePointer<UInt8>, count: Int, through output: NonBlockingOutput,
                             whileBlocked: (Int32) -> Bool) -> Bool {
        write(all: bytes, count: count, with: { output.write($0, count: $1) },
              whileBlocked: { whileBlocked(output.descriptor) })
    }
}
