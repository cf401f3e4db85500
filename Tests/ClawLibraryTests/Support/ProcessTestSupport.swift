import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem

/// Helpers for tests that start real programs: small shell scripts written with mode 0700, and a
/// way to see that a process is gone.
enum ProcessTestSupport {
    /// Writes an executable `#!/bin/sh` script (mode 0700) and returns its path.
    @discardableResult
    static func script(_ dir: ConfigTestDirectory, _ name: String, _ body: String, mode: mode_t = 0o700) -> String {
        let path = dir.write(name, "#!/bin/sh\n" + body + "\n")
        chmod(path, mode)
        return path
    }

    /// Whether `pid` is a live process: a zombie waiting for its parent counts as ended.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    /// Waits (polling /proc, up to 10 s) until none of `pids` runs; true when they are all gone.
    static func waitUntilGone(_ pids: [Int32], timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !pids.contains(where: isRunning) { return true }
            usleep(10_000)
        }
        return !pids.contains(where: isRunning)
    }

    /// Waits (up to 10 s) until `path` holds `count` lines, which a script writes as it starts things;
    /// returns them as process ids.
    static func waitForPIDs(in path: String, count: Int, timeout: Double = 10) -> [Int32] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let pids = text.split(separator: "\n").compactMap { Int32($0) }
            if pids.count >= count { return pids }
            usleep(10_000)
        }
        return []
    }

    /// Polls `condition` every 10 ms for at most `timeout` seconds; whether it came true.
    static func wait(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
