@_spi(Engine) import ClawSystem

/// Pre-encodes `--blast` events: one v4-shaped `chat` delta template, split around its two numbers
/// (per-run `seq` and outer `seq`), so each event costs two digit writes and a copy (the simulator
/// must never be the bottleneck of a throughput benchmark).
struct BlastEncoder {
    private let head: [UInt8]    // ...,"seq":
    private let middle: [UInt8]  // ,"state":"delta",...},"seq":
    private let tail: [UInt8] = Array("}".utf8)
    let opcodeByte: UInt8

    init(approximateBytes: Int, binary: Bool) {
        head = Array(#"{"type":"event","event":"chat","payload":{"runId":"blast","sessionKey":"main","seq":"#.utf8)
        let prefix = #","state":"delta","message":{"role":"assistant","content":[{"type":"text","text":""#
        let suffix = #""}],"timestamp":"# + String(WallClock.milliseconds()) + #"},"deltaText":"x"},"seq":"#
        let fixed = head.count + prefix.utf8.count + suffix.utf8.count + tail.count + 12
        let fill = String(repeating: "x", count: max(1, approximateBytes - fixed))
        middle = Array((prefix + fill + suffix).utf8)
        opcodeByte = binary ? 0x82 : 0x81
    }

    /// Appends the complete WebSocket frame (server frames are unmasked) of event `index` (0-based).
    func appendFrame(index: Int, outerSeq: Int, to out: inout [UInt8]) {
        let runSeq = index + 1
        let length = head.count + Self.digitCount(runSeq) + middle.count + Self.digitCount(outerSeq) + tail.count
        out.append(opcodeByte)
        if length < 126 {
            out.append(UInt8(length))
        } else if length < 65536 {
            out.append(126)
            out.append(UInt8(length >> 8))
            out.append(UInt8(length & 0xff))
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((length >> shift) & 0xff)) }
        }
        appendMessage(runSeq: runSeq, outerSeq: outerSeq, to: &out)
    }

    /// The JSON text alone (for the frame log).
    func message(index: Int, outerSeq: Int) -> [UInt8] {
        var out = [UInt8]()
        appendMessage(runSeq: index + 1, outerSeq: outerSeq, to: &out)
        return out
    }

    private func appendMessage(runSeq: Int, outerSeq: Int, to out: inout [UInt8]) {
        out.append(contentsOf: head)
        Self.appendDigits(runSeq, to: &out)
        out.append(contentsOf: middle)
        Self.appendDigits(outerSeq, to: &out)
        out.append(contentsOf: tail)
    }

    static func digitCount(_ n: Int) -> Int {
        var count = 1, value = n
        while value >= 10 { value /= 10; count += 1 }
        return count
    }

    static func appendDigits(_ n: Int, to out: inout [UInt8]) {
        let count = digitCount(n)
        let start = out.count
        for _ in 0..<count { out.append(48) }
        var value = n
        var i = start + count - 1
        while i >= start {
            out[i] = UInt8(48 + value % 10)
            value /= 10
            i -= 1
        }
    }
}
