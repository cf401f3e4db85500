import Foundation
@_spi(Engine) import ClawJSON

/// What one run of the `openclaw` binary produced.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String

    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    /// Every stdout line parsed as JSON (a line that does not parse fails the caller's expectations as .null).
    var frames: [JSONValue] { lines.map { (try? JSONValue.parse($0)) ?? .null } }
}

/// The lines of `text` (a run's stderr, say) that contain `part`.
func lines(_ text: String, containing part: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.contains(part) }
}

/// A failure of the test harness itself (a process that would not start, a simulator that saw too little).
struct CLIProcessError: Error, CustomStringConvertible { let description: String }

/// A running `openclaw` with stdout and stderr captured in files (so a test can read them
/// while it runs) and its own throwaway HOME and state directory.
final class CLIProcess: @unchecked Sendable {
    let process = Process()
    let directory: URL
    private let stdoutURL: URL
    private let stderrURL: URL

    /// Keeps the write end of a never-read stdout pipe alive (the stalled-reader test).
    private var unreadPipe: Pipe?
    /// The write end of stdin when `stdinIsPipe`: `write(stdin:)` feeds it, `closeStdin()` ends it.
    private var inputPipe: Pipe?

    func write(stdin text: String) { inputPipe?.fileHandleForWriting.write(Data(text.utf8)) }

    /// Bytes waiting in the never-read stdout pipe (`stdoutIsUnreadPipe`).
    var unreadPipeBytes: Int {
        guard let pipe = unreadPipe else { return 0 }
        var count: Int32 = 0
        return ioctl(pipe.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// What the never-read stdout pipe holds when full (openclaw may have enlarged it).
    var unreadPipeCapacity: Int {
        guard let pipe = unreadPipe else { return 0 }
        return Int(fcntl(pipe.fileHandleForReading.fileDescriptor, 1032 /* F_GETPIPE_SZ */))
    }

    /// Reads the never-read stdout pipe from now on, until the process has exited and the pipe is empty.
    func readUnreadPipe(timeout: Double = 60) -> String {
        guard let pipe = unreadPipe else { return "" }
        let fd = pipe.fileHandleForReading.fileDescriptor
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 20) > 0 && unreadPipeBytes > 0 {
                let n = read(fd, &chunk, chunk.count)
                if n > 0 { bytes.append(contentsOf: chunk[..<n]); continue }
            }
            if !process.isRunning && unreadPipeBytes == 0 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    func closeStdin() { try? inputPipe?.fileHandleForWriting.close() }

    /// `executable` runs another program than the built `openclaw` (a shell, for recipes) the same way.
    init(_ arguments: [String], environment: [String: String], stdin: Data? = nil, stdinIsPipe: Bool = false,
         stdoutIsUnreadPipe: Bool = false, executable: URL? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutURL = directory.appendingPathComponent("stdout")
        stderrURL = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = executable ?? BuiltProducts.executable("openclaw")
        process.arguments = arguments
        process.environment = Emulation.childEnvironment(environment)
        // The child gets its own copies of these descriptors; ours are closed once it runs (Foundation
        // keeps a finished Process, and its handles, alive long after this object: a suite of hundreds
        // of runs otherwise piles up thousands of open files in the test process).
        var handles: [FileHandle] = []
        if stdoutIsUnreadPipe {
            let pipe = Pipe()
            unreadPipe = pipe
            process.standardOutput = pipe
        } else {
            let handle = try FileHandle(forWritingTo: stdoutURL)
            handles.append(handle)
            process.standardOutput = handle
        }
        let errorHandle = try FileHandle(forWritingTo: stderrURL)
        handles.append(errorHandle)
        process.standardError = errorHandle
        if let stdin {
            let inputURL = directory.appendingPathComponent("stdin")
            try stdin.write(to: inputURL)
            let handle = try FileHandle(forReadingFrom: inputURL)
            handles.append(handle)
            process.standardInput = handle
        } else if stdinIsPipe {
            let pipe = Pipe()
            inputPipe = pipe
            process.standardInput = pipe
        } else if let handle = FileHandle(forReadingAtPath: "/dev/null") {
            handles.append(handle)
            process.standardInput = handle
        }
        defer { for handle in handles { try? handle.close() } }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits until stdout holds `count` complete lines; false on timeout or exit.
    func waitForLines(_ count: Int, timeout: Double = 20) -> Bool {
        wait(timeout: timeout) { $0.stdout.filter({ $0 == "\n" }).count >= count }
    }

    /// Waits until stdout contains `text`.
    func waitForStdout(_ text: String, timeout: Double = 20) -> Bool {
        wait(timeout: timeout) { $0.stdout.contains(text) }
    }

    /// Waits until stdout contains `text` at least `count` times.
    func waitForStdout(_ text: String, count: Int, timeout: Double = 20) -> Bool {
        wait(timeout: timeout) { $0.stdout.components(separatedBy: text).count - 1 >= count }
    }

    /// Waits until the process has `path` open (a lock file it waits on, say).
    func waitForOpenFile(_ path: String, timeout: Double = 20) -> Bool {
        wait(timeout: timeout) { $0.hasOpen(path) }
    }

    private func hasOpen(_ path: String) -> Bool {
        let descriptors = "/proc/\(process.processIdentifier)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == path }
    }

    /// Waits until stderr contains `text`.
    func waitForStderr(_ text: String, timeout: Double = 20) -> Bool {
        wait(timeout: timeout) { $0.stderr.contains(text) }
    }

    /// Polls `condition` until it holds, the process exits (one last look), or `timeout` passes.
    private func wait(timeout: Double, until condition: (CLIProcess) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            if !process.isRunning { return condition(self) }
            usleep(10_000)
        }
        return false
    }

    func send(signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for exit (killing it after `timeout`) and returns what it produced.
    func finish(timeout: Double = 60) -> CLIResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        // As a shell's `$?` shows it: a death by signal N is 128+N (openclaw ends by SIGINT/SIGTERM itself).
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return CLIResult(status: status, stdout: stdout, stderr: stderr)
    }
}

/// A clean environment for the CLI: a private HOME and state directory, no OPENCLAW_* from outside.
struct CLIEnvironment {
    let home: URL
    var variables: [String: String]

    init(url: String? = nil, token: String? = nil) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: home.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        variables = [
            "HOME": home.path,
            // Its own temporary directory, which holds the device identity lock (the official CLI's `os.tmpdir()`).
            "TMPDIR": home.appendingPathComponent("tmp").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "LANG": "C.UTF-8",
        ]
        if let url { variables["OPENCLAW_GATEWAY_URL"] = url }
        if let token { variables["OPENCLAW_GATEWAY_TOKEN"] = token }
    }

    var stateDirectory: URL { home.appendingPathComponent(".openclaw") }
    var temporaryDirectory: URL { home.appendingPathComponent("tmp") }

    /// Runs `openclaw` to completion.
    func run(_ arguments: [String], stdin: Data? = nil, timeout: Double = 60) throws -> CLIResult {
        try CLIProcess(arguments, environment: variables, stdin: stdin).finish(timeout: timeout)
    }

    func start(_ arguments: [String], stdin: Data? = nil) throws -> CLIProcess {
        try CLIProcess(arguments, environment: variables, stdin: stdin)
    }
}

/// A simulator plus a CLI environment pointed at it with the matching token.
struct GatewayFixture {
    static let token = "fixture-token-3f9a"
    let simulator: SimulatorProcess
    var cli: CLIEnvironment

    init(_ arguments: [String] = []) throws {
        simulator = try SimulatorProcess(["--token", Self.token] + arguments)
        cli = CLIEnvironment(url: simulator.url, token: Self.token)
    }

    func run(_ arguments: [String], stdin: Data? = nil, timeout: Double = 60) throws -> CLIResult {
        try cli.run(arguments, stdin: stdin, timeout: timeout)
    }

    /// The methods the simulator received requests for, in order.
    func receivedMethods() -> [String] {
        simulator.logEntries().compactMap { entry in
            guard entry["dir"]?.stringValue == "in", entry["frame"]?["type"]?.stringValue == "req" else { return nil }
            return entry["frame"]?["method"]?.stringValue
        }
    }
}
