@_spi(Engine) import ClawJSON

/// One line of the gateway's file log as tslog writes it (`src/logging`): the message under `"0"`,
/// `_meta` with the logger name (a JSON string naming the subsystem), the level and the UTC date,
/// then `time`. `openclaw logs` parses these lines; the simulator writes them the same way.
enum LogLine {
    enum Level: String {
        case info = "INFO", warn = "WARN"

        /// tslog's numeric level (`logLevelId`), one digit for both, so synthetic lines keep one width.
        var id: Int { self == .info ? 3 : 4 }
    }

    /// The line for `message` (no trailing newline).
    static func make(_ message: String, subsystem: String, level: Level = .info, at ms: Int64) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(message.utf8.count + 256)
        out.append(contentsOf: #"{"0":"#.utf8)
        JSONValue.writeString(message, to: &out)
        out.append(contentsOf: #","_meta":{"runtime":"node","runtimeVersion":"24.4.0","hostname":"unknown","name":"#.utf8)
        JSONValue.writeString(#"{"subsystem":"\#(subsystem)"}"#, to: &out)
        let date = UTCDate.iso8601(ms)
        out.append(contentsOf: #","parentNames":["openclaw"],"date":""#.utf8)
        out.append(contentsOf: date.utf8)
        out.append(contentsOf: #"","logLevelId":\#(level.id),"logLevelName":""#.utf8)
        out.append(contentsOf: level.rawValue.utf8)
        out.append(contentsOf: #""},"time":""#.utf8)
        out.append(contentsOf: date.utf8)
        out.append(contentsOf: #""}"#.utf8)
        return out
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` from epoch milliseconds, without a formatter (synthetic lines are made
/// by the thousand per poll), always 24 characters for years 1000-9999.
enum UTCDate {
    static func iso8601(_ ms: Int64) -> String {
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = civil(days)
        let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, milli = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(milli, 3))Z"
    }

    /// `YYYY-MM-DD` of the UTC day `days` after the one holding `ms` (the log file's name).
    static func day(_ ms: Int64, plusDays days: Int64 = 0) -> String {
        let (year, month, day) = civil(floorDivide(ms, 86_400_000).0 + days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// Days since 1970-01-01 to (year, month, day): Howard Hinnant's civil_from_days.
    private static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
