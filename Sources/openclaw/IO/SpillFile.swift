@_spi(Engine) import ClawSystem

/// An anonymous temporary file (created in TMPDIR, or /tmp, and unlinked at once, so nothing is left
/// behind on any exit) holding records too large in total to keep in memory: `history --all` writes
/// each page as it arrives and reads them back in the other order.
final class SpillFile {
    private let file: ScratchFile
    private var size = 0
    /// Where each record is.
    private(set) var records: [(offset: Int, count: Int)] = []

    /// `environment`: the command's (its `TMPDIR`), not a second read of the process environment.
    init(environment: Environment) throws {
        let directory = TextTrim.nonEmpty(environment["TMPDIR"]) ?? "/tmp"
        do { file = try ScratchFile(directory: directory, prefix: "openclaw-spill-") } catch {
            throw CommandFailure(.usage, "cannot create a temporary file in \(directory): \(error)")
        }
    }

    func append(_ bytes: [UInt8]) throws {
        do { try file.write(bytes, at: size) } catch {
            throw CommandFailure(.usage, "cannot write a temporary file: \(error)")
        }
        records.append((size, bytes.count))
        size += bytes.count
    }

    func read(_ index: Int) throws -> [UInt8] {
        let record = records[index]
        guard let bytes = file.read(count: record.count, at: record.offset) else {
            throw CommandFailure(.usage, "cannot read back a temporary file")
        }
        return bytes
    }
}
