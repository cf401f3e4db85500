import Glibc
import OpenClawKit

/// What every command gets: the parsed invocation, output mode, and how to reach the gateway.
struct CommandContext {
    enum OutputFormat: String { case ndjson, text }

    let invocation: Invocation
    let environment: Environment
    let format: OutputFormat
    /// The deadline for the whole command (`--timeout`).
    let deadline: Deadline
    let timeoutSeconds: Double

    init(invocation: Invocation, environment: Environment, defaultTimeout: Double) {
        self.invocation = invocation
        self.environment = environment
        format = OutputFormat(rawValue: invocation.string("output") ?? "ndjson") ?? .ndjson
        let timeout = invocation.seconds("timeout") ?? defaultTimeout
        timeoutSeconds = timeout
        deadline = timeout > 0 ? .after(seconds: timeout) : .never
    }

    /// The session key the user asked for (`main` by default).
    var sessionKey: String { invocation.string("session") ?? "main" }

    var raw: Bool { invocation.has("raw") && format == .ndjson }

    /// Resolves URL and credentials, loads the device identity, and runs the handshake.
    /// With `--raw`, prints the handshake frames.
    func openSession() throws -> GatewaySession {
        let options = try ConnectionSetup.sessionOptions(for: invocation, environment: environment)
        do { return try connect(options) } catch { throw CommandFailure(error) }
    }

    /// One handshake with already-resolved options (watch reconnects with the same ones).
    func connect(_ options: SessionOptions) throws(GatewayError) -> GatewaySession {
        let session = try GatewaySession.open(options, deadline: deadline)
        for warning in session.warnings { Console.note(warning) }
        if raw { for frame in session.handshakeFrames { Console.out.writeLine(Array(frame.compactText.utf8)) } }
        return session
    }

    /// Prints a frame as one NDJSON line; secrets are redacted even here.
    func printFrame(_ frame: GatewayFrame) {
        Console.out.writeLine(SecretFilter.line(for: frame))
    }

    func timeoutFailure(_ what: String) -> CommandFailure {
        CommandFailure(.timeout, "timed out \(what) (--timeout \(formatTimeout(timeoutSeconds)))")
    }
}

func formatTimeout(_ seconds: Double) -> String {
    seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
}

/// Guards stdout against secrets in gateway frames at a cost of one byte scan per frame.
enum SecretFilter {
    /// Lower-case ASCII pieces of every name `Redaction.isSecretKey` accepts, matched case-insensitively,
    /// each with the index of a rare byte to scan for; a `\u` escape could spell any of them, so it sends
    /// the frame to the exact check too.
    private static let markers: [(bytes: [UInt8], anchor: Int)] = [
        (Array("oken\"".utf8), 1), (Array("assword".utf8), 3), (Array("ecret".utf8), 1),
        (Array("rivatekey".utf8), 6), (Array("apikey\"".utf8), 3), (Array("\\u".utf8), 0),
    ]

    static func line(for frame: GatewayFrame) -> [UInt8] {
        guard mayContainSecret(frame.raw), Redaction.containsSecret(frame.value) else { return frame.line }
        var out = [UInt8]()
        Redaction.redact(frame.value).write(to: &out)
        return out
    }

    static func mayContainSecret(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            markers.contains { marker in
                marker.bytes.withUnsafeBytes { ByteSearch.containsIgnoringASCIICase(buffer, $0, anchor: marker.anchor) }
            }
        }
    }
}
