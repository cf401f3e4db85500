// stdin-bot: the skeleton of a bot. A long-lived `GatewayClient` stays connected (reconnecting with
// backoff) while each line read from stdin is sent to one session and its reply is written to stdout
// as it grows. End of input cancels `run()`, which closes the connection; when `run()` gives up (a
// refused token, say), the bot exits 1 with its reason at the next line or at end of input.
//
//     OPENCLAW_GATEWAY_URL=ws://127.0.0.1:18789 OPENCLAW_GATEWAY_TOKEN=… stdin-bot
import ClawGatewayClient
import Glibc

/// Writes a line to stderr (C's `stderr` global is shared mutable state to Swift 6).
func warn(_ message: String) {
    let line = "stdin-bot: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}

/// Sends one line and writes the reply to stdout as it grows; a failure ends this message only (a
/// link lost mid-reply, a refusal).
func answer(_ line: String, on gateway: GatewayConnection) async {
    do {
        for try await update in try await gateway.send(line, to: "stdin-bot") {
            switch update.change {
            case .appended(let more): print(more, terminator: "")
            case .rewritten: print("\n" + update.text, terminator: "")  // show the whole text again
            case .unchanged: break
            }
            fflush(nil)  // stdout, as the reply grows
        }
        print()
    } catch {
        warn("\(error)")
    }
}

let url = getenv("OPENCLAW_GATEWAY_URL").map { String(cString: $0) } ?? "ws://127.0.0.1:18789"
var configuration = GatewayConfiguration(url: url)
configuration.token = getenv("OPENCLAW_GATEWAY_TOKEN").map { Secret(String(cString: $0)) }
configuration.deviceIdentity = .ephemeral  // a key for this process only: nothing is written to disk
let client = GatewayClient(configuration: configuration)

do {
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await client.run() }
        // This closure runs on the main actor: the blocking readLine() holds the main thread, never a
        // thread of the cooperative pool (the client's I/O has a thread of its own anyway).
        while let line = readLine() {
            guard !line.isEmpty else { continue }
            // Waiting for a connection fails with a timeout while the client reconnects (go on), or
            // with the error run() ended with: the loop throws it, and the group with it.
            do {
                try await client.withConnection { gateway in await answer(line, on: gateway) }
            } catch let error as GatewayClientError where error.code == .timedOut {
                warn("\(error)")
            }
        }
        group.cancelAll()  // end of input: run() closes the connection and returns
    }
} catch {
    warn("\(error)")
    exit(1)
}
