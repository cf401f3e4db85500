import Glibc

/// The times of a gateway log line (`2026-09-13T10:15:02.123Z`) shown as `logs` shows them:
/// as written with `--utc`, in the local zone otherwise.
@_spi(Engine) public enum LogTime {
    /// Milliseconds since the epoch of an ISO 8601 UTC time (`Z` or `+00:00`); nil when it is not one.
    @_spi(Engine) public static func epochMilliseconds(iso text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
        var index = 19
        var millis = 0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                if digits < 3 { millis = millis * 10 + Int(bytes[index] - 0x30); digits += 1 }
                index += 1
            }
            while digits < 3 { millis *= 10; digits += 1 }
        }
        let zone = String(decoding: bytes[index...], as: UTF8.self)
        guard zone == "Z" || zone == "+00:00" else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        guard seconds != -1 else { return nil }
        return Int64(seconds) * 1000 + Int64(millis)
    }

    /// `2026-09-13T12:15:02.123+02:00`: the local zone, with its offset.
    @_spi(Engine) public static func local(epochMilliseconds value: Int64) -> String {
        var seconds = time_t(value / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(value % 1000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        let offset = Int(parts.tm_gmtoff) / 60
        let sign = offset < 0 ? "-" : "+"
        let zone = "\(sign)\(two(Int32(abs(offset) / 60))):\(two(Int32(abs(offset) % 60)))"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)\(zone)"
    }
}
