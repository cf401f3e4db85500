// cron-summary: a one-shot job. Sends its arguments as one message, prints the final reply, and exits
// 1 with the reason on stderr when anything fails, so cron mails it and a script can test `$?`.
//
//     cron-summary "Summarise what happened in my inbox today"
//
// It connects the way the `openclaw` CLI does: `GatewayConfiguration.official()` reads the OpenClaw
// config file, `OPENCLAW_GATEWAY_URL` / `OPENCLAW_GATEWAY_TOKEN`, secret refs and the device identity
// of the state directory (`~/.openclaw`, or `OPENCLAW_STATE_DIR`).
import ClawGatewayClient
import Glibc

/// Writes `message` to stderr and exits (C's `stderr` global is shared mutable state to Swift 6).
func fail(_ message: String, status: Int32 = 1) -> Never {
    let line = "cron-summary: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(status)
}

let message = CommandLine.arguments.dropFirst().joined(separator: " ")
guard !message.isEmpty else {
    fail("usage: cron-summary MESSAGE...", status: 2)
}

do {
    var configuration = try GatewayConfiguration.official()
    configuration.requestTimeout = .seconds(60)
    let reply = try await GatewayConnection.withConnection(configuration) { gateway in
        try await gateway.send(message).reply()
    }
    print(reply)
} catch let error as GatewayClientError {
    // One sentence, never a secret; isRetryable says whether a later run may succeed as it is.
    fail("\(error)\(error.isRetryable ? " (temporary)" : "")")
} catch {
    fail("\(error)")
}
