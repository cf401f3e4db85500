// swift-watch: `openclaw watch` in Swift. Prints every event the gateway pushes as one JSON line,
// {"event":NAME,"seq":N,"payload":…}, until interrupted, or after N events with `--count N`.
// Reconnects by itself; a line {"gap":{"expected":E,"received":R}} says which events of a connection
// were missed (nothing tells of those sent while it reconnected: the gateway does not replay them).
//
//     OPENCLAW_GATEWAY_URL=ws://127.0.0.1:18789 OPENCLAW_GATEWAY_TOKEN=… swift-watch | jq .
import ClawGatewayClient
import Glibc

/// Writes `message` to stderr and exits (C's `stderr` global is shared mutable state to Swift 6).
func fail(_ message: String, status: Int32 = 1) -> Never {
    let line = "swift-watch: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(status)
}

let arguments = CommandLine.arguments
var limit: Int? = nil
if arguments.count == 3, arguments[1] == "--count", let count = Int(arguments[2]), count > 0 {
    limit = count
} else if arguments.count != 1 {
    fail("usage: swift-watch [--count N]", status: 2)
}

let url = getenv("OPENCLAW_GATEWAY_URL").map { String(cString: $0) } ?? "ws://127.0.0.1:18789"
var configuration = GatewayConfiguration(url: url)
configuration.token = getenv("OPENCLAW_GATEWAY_TOKEN").map { Secret(String(cString: $0)) }
let client = GatewayClient(configuration: configuration)
let events = client.events()  // before run(): not one event of the first connection is missed

do {
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await client.run() }
        var seen = 0
        for try await event in events {
            if let gap = event.gap {
                let missed: JSONValue = ["gap": ["expected": JSONValue(gap.expected), "received": JSONValue(gap.received)]]
                print(missed)
            }
            // A JSONValue prints as compact JSON; its object members keep the order written here.
            let line: JSONValue = ["event": JSONValue(event.name), "seq": event.seq.map(JSONValue.init) ?? .null,
                                   "payload": event.payload]
            print(line)
            fflush(nil)  // each line as it comes (stdout is buffered in a pipe); `fflush(stdout)` is a Swift 6 error
            seen += 1
            if let limit, seen >= limit { break }
        }
        group.cancelAll()
    }
} catch {
    fail("\(error)")
}
