import Glibc
import ClawSystem

/// An anonymous temporary file (created in TMPDIR, or /tmp, and unlinked at once, so nothing is left
/// behind on any exit) holding records too large in total to keep in memory: `history --all` writes
/// each page as it arrives and reads them back in the other order.
final class SpillFile {
    private let descriptor: Int32
    private var size = 0
    /// Where each record is.
    private(set) var records: [(offset: Int, count: Int)] = []

    /// `environment`: the command's (its `TMPDIR`), not a second read of the process environment.
    init(environment: Environment) throws {
        let directory = TextTrim.nonEmpty(environment["TMPDIR"]) ?? "/tmp"
        var template = Array((directory + "/openclaw-spill-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw CommandFailure(.usage, "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    func append(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(size + written)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(.usage, "cannot write a temporary file: \(String(cString: strerror(errno)))")
            }
            written += n
        }
        records.append((size, bytes.count))
        size += bytes.count
    }

    func read(_ index: Int) throws -> [UInt8] {
        let record = records[index]
        var bytes = [UInt8](repeating: 0, count: record.count)
        var done = 0
        while done < record.count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(record.offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CommandFailure(.usage, "cannot read back a temporary file") }
            done += n
        }
        return bytes
    }
}
