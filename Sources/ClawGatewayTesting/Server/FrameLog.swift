import Foundation
@_spi(Engine) import ClawJSON

/// The `--log` file: every frame in and out as one NDJSON line `{"dir","conn","frame"}`, flushed per line
/// so tests can read it while the simulator runs. Frames that are not JSON are logged as strings.
final class FrameLog: @unchecked Sendable {
    private let lock = NSLock()
    private let file: UnsafeMutablePointer<FILE>

    init?(path: String) {
        guard let file = fopen(path, "a") else { return nil }
        self.file = file
    }

    deinit { fclose(file) }

    func record(direction: String, connection: Int, frame: [UInt8], isJSON: Bool? = nil) {
        var line = [UInt8]()
        line.reserveCapacity(frame.count + 48)
        line.append(contentsOf: #"{"dir":""#.utf8)
        line.append(contentsOf: direction.utf8)
        line.append(contentsOf: #"","conn":"#.utf8)
        line.append(contentsOf: String(connection).utf8)
        line.append(contentsOf: #","frame":"#.utf8)
        let json = isJSON ?? ((try? JSONValue.parse(frame)) != nil)
        if json {
            line.append(contentsOf: frame)
        } else {
            JSONValue.string(String(decoding: frame, as: UTF8.self)).write(to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        lock.withLock {
            _ = line.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fflush(file)
        }
    }

    /// A keepalive line: `{"dir":"ping","conn":N}` (a ping written), `{"dir":"pong","conn":N}` (a pong
    /// received), `{"dir":"dropped","conn":N,"reason":…}` (no pong in time).
    func recordKeepAlive(_ direction: String, connection: Int, reason: String? = nil) {
        var line = #"{"dir":"\#(direction)","conn":\#(connection)"#
        if let reason { line += #","reason":"\#(reason)""# }
        line += "}\n"
        lock.withLock {
            fputs(line, file)
            fflush(file)
        }
    }

    /// The `--blast` summary: one line, with a `blast` member where other lines have `frame`.
    func recordBlast(connection: Int, count: Int, firstSeq: Int, bytes: Int) {
        let line = #"{"dir":"out","conn":\#(connection),"blast":{"count":\#(count),"firstSeq":\#(firstSeq),"bytes":\#(bytes)}}"# + "\n"
        lock.withLock {
            fputs(line, file)
            fflush(file)
        }
    }
}
