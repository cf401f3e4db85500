import Foundation
@_spi(Engine) import ClawJSON

/// A running `openclaw-gateway-sim` on a free port, with its `--log` file; stopped (SIGTERM) or
/// killed by the test, and killed at the latest when released.
final class SimulatorProcess: @unchecked Sendable {
    struct StartError: Error, CustomStringConvertible { var description: String }

    let process = Process()
    let port: Int
    /// `ws://127.0.0.1:PORT` (or `wss://`).
    let url: String
    let logURL: URL?
    private let stdoutPipe = Pipe()

    /// Starts the simulator with `arguments` plus `--port port` (0 = a free port; pass an old port to
    /// restart a gateway in place) and `--log` unless `log` is false, and waits for its `listening on` line.
    init(_ arguments: [String] = [], log: Bool = true, port: Int = 0, timeout: Double = 20) throws {
        var arguments = arguments + ["--port", String(port)]
        if log {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString).ndjson")
            arguments += ["--log", url.path]
            logURL = url
        } else {
            logURL = nil
        }
        process.executableURL = BuiltProducts.executable("openclaw-gateway-sim")
        process.arguments = arguments
        process.environment = Emulation.childEnvironment(ProcessInfo.processInfo.environment)
        process.standardOutput = stdoutPipe
        try process.run()
        guard let line = Self.readLine(stdoutPipe.fileHandleForReading.fileDescriptor, timeout: timeout) else {
            process.terminate()
            throw StartError(description: "the simulator did not print its listening line")
        }
        let prefix = "listening on "
        guard line.hasPrefix(prefix), let colon = line.lastIndex(of: ":"), let port = Int(line[line.index(after: colon)...]) else {
            process.terminate()
            throw StartError(description: "unexpected first line: \(line)")
        }
        url = String(line.dropFirst(prefix.count))
        self.port = port
    }

    deinit {
        if process.isRunning { kill() }
        if let logURL { try? FileManager.default.removeItem(at: logURL) }
    }

    /// SIGTERM, then waits for exit; returns the exit status.
    @discardableResult
    func stop(timeout: Double = 10) -> Int32 {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
        return waitForExit(timeout: timeout)
    }

    /// SIGKILL (the gateway vanishes without closing anything).
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        _ = waitForExit(timeout: 10)
    }

    func waitForExit(timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        return process.terminationStatus
    }

    /// Every `--log` line so far, parsed (`{"dir","conn","frame"}`).
    func logEntries() -> [JSONValue] {
        guard let logURL, let data = try? Data(contentsOf: logURL) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONValue.parse(Array($0)) }
    }

    /// Reads one line from a pipe, giving up after `timeout` seconds.
    private static func readLine(_ fd: Int32, timeout: Double) -> String? {
        var bytes = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let n = read(fd, &byte, 1)
            if n <= 0 { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

/// Waits until the simulator's log shows `connections` completed handshakes.
func waitUntilConnected(_ simulator: SimulatorProcess, connections: Int = 1) throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
        let hellos = simulator.logEntries().filter { $0["frame"]?["payload"]?["type"]?.stringValue == "hello-ok" }
        if hellos.count >= connections { return }
        usleep(20_000)
    }
    throw CLIProcessError(description: "the simulator saw fewer than \(connections) handshakes")
}
