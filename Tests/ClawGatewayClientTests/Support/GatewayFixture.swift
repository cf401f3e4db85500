import Glibc
import ClawGatewayClient
import ClawGatewayTesting

/// A test gateway with a frame log, and configurations pointing at it.
final class GatewayFixture: @unchecked Sendable {
    let gateway: TestGateway
    let logPath: String
    let token = "test-token"

    init(_ arguments: [String] = [], port: Int = 0) throws {
        var template = Array("/tmp/claw-client-log.XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        precondition(fd >= 0)
        close(fd)
        logPath = String(cString: template)
        gateway = try TestGateway.start(arguments: ["--port", String(port), "--token", token, "--log", logPath] + arguments)
    }

    deinit {
        gateway.stop()
        unlink(logPath)
    }

    var configuration: GatewayConfiguration {
        var configuration = GatewayConfiguration(url: gateway.url)
        configuration.token = Secret(token)
        return configuration
    }

    /// The frames the gateway received (`dir: in`), in order.
    func received() -> [JSONValue] {
        logLines().filter { $0["dir"]?.stringValue == "in" }.compactMap { $0["frame"] }
    }

    func logLines() -> [JSONValue] {
        guard let file = fopen(logPath, "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONValue.parse(Array($0)) }
    }

    /// Requests of `method` the gateway received.
    func requests(_ method: String) -> [JSONValue] {
        received().filter { $0["type"]?.stringValue == "req" && $0["method"]?.stringValue == method }
    }
}

/// Waits (polling every 10 ms, an event and not a fixed sleep) until `condition` holds; false after 30 s.
func eventually(_ condition: () throws -> Bool) async rethrows -> Bool {
    for _ in 0..<3000 {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// This process's open sockets connected to `port` on loopback (from /proc/net/tcp and /proc/self/fd).
func socketsConnected(toPort port: Int) -> Int {
    let inodes = Set(tcpInodes(remotePort: port))
    var count = 0
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var target = [CChar](repeating: 0, count: 256)
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
        guard length > 0 else { continue }
        target[length] = 0
        let link = String(cString: target)
        if link.hasPrefix("socket:["), let inode = Int(link.dropFirst(8).dropLast()), inodes.contains(inode) { count += 1 }
    }
    return count
}

private func tcpInodes(remotePort port: Int) -> [Int] {
    guard let file = fopen("/proc/net/tcp", "r") else { return [] }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    var inodes: [Int] = []
    let wanted = String(port, radix: 16, uppercase: true)
    while fgets(&line, Int32(line.count), file) != nil {
        let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 9 else { continue }
        let remote = fields[2].split(separator: ":")
        guard remote.count == 2, remote[1].count == 4,
              Int(remote[1], radix: 16) == Int(wanted, radix: 16), let inode = Int(fields[9]) else { continue }
        inodes.append(inode)
    }
    return inodes
}

/// The library's I/O threads (named `claw-io`) alive in this process.
func ioThreadCount() -> Int {
    guard let dir = opendir("/proc/self/task") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    var name = [CChar](repeating: 0, count: 64)
    while let entry = readdir(dir) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        guard task.first != ".", let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        defer { fclose(file) }
        if fgets(&name, Int32(name.count), file) != nil, String(cString: name).hasPrefix("claw-io") { count += 1 }
    }
    return count
}
