import Foundation

/// Polls `condition` every 20 ms until it holds (an event, not a sleep); false when it still does not
/// after `timeout` seconds (30 unless told).
func eventually(_ timeout: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
