import Foundation
import Testing

/// Finding the built binary, the repository and the shells, and running processes, for the
/// completion, man page and install tests.
enum DocsTestSupport {
    /// The package root: four levels above this file (Tests/openclawTests/Support/).
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.build/debug/openclaw`, next to the test bundle or one directory up.
    static func openclawBinary() throws -> URL {
        if ProcessInfo.processInfo.environment["OPENCLAW_TEST_PRODUCTS"] != nil { return BuiltProducts.executable("openclaw") }
        let testExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testExecutable.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("openclaw")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = repository.appendingPathComponent(".build/debug/openclaw")
        if FileManager.default.isExecutableFile(atPath: fallback.path) { return fallback }
        throw SupportError("openclaw binary not found near \(testExecutable.path); run swift build first")
    }

    /// A program on PATH; a missing shell is a failure (CI installs them), never a skip.
    static func program(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw SupportError("\(name) is not installed: make test installs it (scripts/install-deps.sh names its package)")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs a program to completion under `timeout(1)`, so a hung shell fails the test instead of
    /// stalling the run; output goes through files, so no pipe can fill up.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        directory: URL? = nil, limit: Int = 60
    ) throws -> Result {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try program("timeout")
        process.arguments = ["-k", "5", String(limit), executable.path] + arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = directory ?? repository
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openclaw-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to url: URL, executable: Bool = false) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    /// A clean environment for a shell: a private HOME, no user configuration, `extraPath` first on PATH.
    static func shellEnvironment(home: URL, extraPath: URL? = nil) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return [
            "HOME": home.path,
            "PATH": (extraPath.map { $0.path + ":" } ?? "") + inherited,
            "TERM": "xterm",
            "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
        ]
    }

    /// A stand-in `openclaw` on PATH for the session-key completion: prints a `sessions.list` res
    /// frame for exactly the call the scripts make, and fails like an unreachable gateway otherwise.
    static func fakeGatewayClient(in directory: URL, reachable: Bool) throws {
        let body = reachable
            ? "[ \"$*\" = '__session-keys --timeout 2 -q' ] || exit 2\nprintf '%s\\n' 'agent:main:main' 'agent:main:work'\n"
            : "echo 'openclaw: error: cannot connect' >&2\nexit 3\n"
        try write("#!/bin/sh\n" + body, to: directory.appendingPathComponent("openclaw"), executable: true)
    }

    static let globalFlags: Set<String> = [
        "-u", "--url", "-t", "--token", "--token-file", "--password", "-s", "--session", "--timeout",
        "--connect-timeout", "--retry-connrefused", "--wait-for-pairing", "-o", "--output", "--raw", "--trace", "--strict", "-q", "--quiet", "--state-dir", "--config",
        "--profile", "--dev", "--log-level", "--no-color", "--container", "--no-device", "--scope", "--tls-fingerprint",
        "--cacert", "-h", "--help", "-V", "--version",
    ]
    static let historyFlags: Set<String> = ["-n", "--limit", "--all"]
    static let sendFlags: Set<String> = [
        "-f", "--file", "--thinking", "--deliver", "--attach", "--idempotency-key", "--no-wait", "--agent-events",
    ]
}

struct SupportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
