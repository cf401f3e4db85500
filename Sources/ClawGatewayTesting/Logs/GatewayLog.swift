import Foundation
@_spi(Engine) import ClawSystem

/// The gateway's own file log, kept in memory and read by `logs.tail` with byte-offset cursors, as the
/// official gateway reads `/tmp/openclaw/openclaw-YYYY-MM-DD.log`. The file starts with `--log-lines`
/// synthetic lines, made on demand from their offset (all of one width, so a million of them cost no
/// memory), then the `--log-raw-line`s and every line written since (one per connection and request).
/// A rotation empties it under a new name, as the daily roll does: a follower's cursor is then past the
/// end and its next read says `reset`.
final class GatewayLog: @unchecked Sendable {
    /// One `logs.tail` answer before it is encoded.
    struct Tail {
        var file: String
        var cursor: Int
        var size: Int
        var lines: [String]
        var truncated: Bool
        var reset: Bool
    }

    /// Written lines are capped even without `--log-rotate-bytes`, so a long benchmark cannot grow the
    /// simulator without bound: past this many bytes the log rotates as it would at that size.
    static let storedByteCap = 64 * 1024 * 1024

    private let lock = NSLock()
    private let startedAtMs: Int64
    private let rotateBytes: Int?
    private let rotateAfterPolls: Int?
    /// Rotations so far: the file name's day is the start's plus this many.
    private var generation: Int64 = 0
    /// Synthetic lines at the head of generation 0 (none after a rotation), and their width without "\n".
    private var syntheticCount: Int
    private let syntheticWidth: Int
    private let syntheticDigits: Int
    /// Everything after the synthetic lines, newline-terminated lines.
    private var written: [UInt8] = []
    private var polls = 0
    private let appendPerPoll: Int
    /// Lines appended by `--log-append-per-poll` so far.
    private var appended = 0

    init(options: SimulatorOptions, startedAtMs: Int64) {
        self.startedAtMs = startedAtMs
        rotateBytes = options.logRotateBytes
        rotateAfterPolls = options.logRotateAfterPolls
        appendPerPoll = options.logAppendPerPoll
        syntheticCount = options.logLines
        syntheticDigits = max(7, String(options.logLines).count)
        syntheticWidth = Self.synthetic(1, digits: syntheticDigits, count: options.logLines, startedAtMs: startedAtMs).count
        for raw in options.logRawLines {
            written.append(contentsOf: raw.utf8)
            written.append(UInt8(ascii: "\n"))
        }
    }

    var file: String { lock.withLock { fileLocked } }
    private var fileLocked: String {
        "/tmp/openclaw-sim/openclaw-\(UTCDate.day(startedAtMs, plusDays: generation)).log"
    }

    private var syntheticBytes: Int { syntheticCount * (syntheticWidth + 1) }
    private var sizeLocked: Int { syntheticBytes + written.count }

    /// Appends one tslog line (the caller's own time).
    func write(_ message: String, subsystem: String, level: LogLine.Level = .info) {
        let line = LogLine.make(message, subsystem: subsystem, level: level, at: WallClock.milliseconds())
        lock.withLock {
            // A line that would take the file past the limit starts the next file, as a size cap does.
            let limit = min(rotateBytes ?? Int.max, sizeLocked - written.count + Self.storedByteCap)
            if sizeLocked > 0 && sizeLocked + line.count + 1 > limit { rotateLocked() }
            written.append(contentsOf: line)
            written.append(UInt8(ascii: "\n"))
        }
    }

    /// `--log-append-per-poll`: short numbered lines (13 + 7 bytes), so a million fit under the cap.
    private func appendLocked(count: Int) {
        for _ in 0..<count {
            appended += 1
            let number = String(appended)
            written.append(contentsOf: "follow line \(String(repeating: "0", count: max(0, 7 - number.count)))\(number)\n".utf8)
        }
    }

    private func rotateLocked() {
        generation += 1
        syntheticCount = 0
        written = []
    }

    /// `logs.tail` as the official reader answers it (src/logging/log-tail.ts): without a cursor the
    /// last `limit` lines within the last `maxBytes`; with one, the lines after it, jumping to the last
    /// `maxBytes` (`reset`, `truncated`) when more has been written since; a cursor past the end (the
    /// file rotated or shrank) reads from the start of the new file with `reset`. The cursor returned is
    /// always the end of the file. Counts as a poll for `--log-rotate-after-polls`.
    func tail(cursor: Int?, limit: Int, maxBytes: Int) -> Tail {
        lock.withLock {
            defer {
                polls += 1
                if let every = rotateAfterPolls, polls % every == 0 { rotateLocked() }
                appendLocked(count: appendPerPoll)
            }
            let size = sizeLocked
            var reset = false, truncated = false
            var start: Int
            if let cursor {
                if cursor > size {
                    reset = true
                    start = max(0, size - maxBytes)
                    truncated = start > 0
                } else {
                    start = cursor
                    if size - start > maxBytes {
                        reset = true
                        truncated = true
                        start = size - maxBytes
                    }
                }
            } else {
                start = max(0, size - maxBytes)
                truncated = start > 0
            }
            guard size > 0, start < size else {
                return Tail(file: fileLocked, cursor: size, size: size, lines: [], truncated: truncated, reset: reset)
            }
            let window = bytesLocked(from: start, to: size)
            var lines = window.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            // Starting inside a line: that partial line is not returned.
            if start > 0 && byteLocked(at: start - 1) != UInt8(ascii: "\n") { lines.removeFirst() }
            if lines.last?.isEmpty == true { lines.removeLast() }
            if lines.count > limit {
                lines.removeFirst(lines.count - limit)
                truncated = true
            }
            return Tail(file: fileLocked, cursor: size, size: size, lines: lines.map { String(decoding: $0, as: UTF8.self) },
                        truncated: truncated, reset: reset)
        }
    }

    /// The file's bytes in [from, to): synthetic lines generated for their part, then written bytes.
    private func bytesLocked(from: Int, to: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(to - from)
        let lineLength = syntheticWidth + 1
        if from < syntheticBytes {
            var index = from / lineLength
            var skip = from % lineLength
            while index < syntheticCount && from + out.count < to {
                var line = Self.synthetic(index + 1, digits: syntheticDigits, count: syntheticCount, startedAtMs: startedAtMs)
                line.append(UInt8(ascii: "\n"))
                let wanted = min(line.count - skip, to - from - out.count)
                out.append(contentsOf: line[skip..<(skip + wanted)])
                skip = 0
                index += 1
            }
        }
        let writtenFrom = max(from, syntheticBytes) - syntheticBytes
        let writtenTo = to - syntheticBytes
        if writtenTo > writtenFrom { out.append(contentsOf: written[writtenFrom..<writtenTo]) }
        return out
    }

    private func byteLocked(at offset: Int) -> UInt8 {
        if offset >= syntheticBytes { return written[offset - syntheticBytes] }
        let lineLength = syntheticWidth + 1
        if offset % lineLength == syntheticWidth { return UInt8(ascii: "\n") }
        let line = Self.synthetic(offset / lineLength + 1, digits: syntheticDigits, count: syntheticCount, startedAtMs: startedAtMs)
        return line[offset % lineLength]
    }

    /// Synthetic line `number` (1-based) of `count`: dated one millisecond apart, ending a second before
    /// the start; every tenth a warning (same width: `INFO`, `WARN`).
    static func synthetic(_ number: Int, digits: Int, count: Int, startedAtMs: Int64) -> [UInt8] {
        let text = String(number)
        let padded = String(repeating: "0", count: max(0, digits - text.count)) + text
        let at = startedAtMs - 1000 - Int64(count - number)
        return LogLine.make("synthetic log line \(padded)", subsystem: "gateway/sim", level: number % 10 == 0 ? .warn : .info, at: at)
    }
}
